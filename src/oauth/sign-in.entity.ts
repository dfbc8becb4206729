import { WorldScoped } from '../world/world-scope';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Failed sign-ins of one subject from one address in the current window (docs/security.md, "Guessing is bounded"). */
@WorldScoped('none')
@Entity('sign_in_failures')
export class SignInFailures {
  /** SHA-256 (hex) of what signs in and from where: `<form>:<subject>@<address>`. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key: string;

  @Column({ type: 'integer' })
  failures: number;

  /** When the window ends and the count starts again (real time, ISO 8601). */
  @Column({ type: 'varchar', length: 24 })
  windowEndsAt: string;
}

/** A session its holder signed out of, refused until it would have expired anyway, on every instance (docs/security.md, "Sessions"). */
@WorldScoped('none')
@Entity('ended_sessions')
export class EndedSession {
  /** SHA-256 of the cookie's value, hex. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  sessionHash: string;

  /** When the cookie would have expired (real time, ISO 8601): then the row is of no use. */
  @Column({ type: 'varchar', length: 24 })
  expiresAt: string;
}

/** Registrations from one address in the current hour (REGISTRATIONS_PER_HOUR), kept until the hour is over. */
@WorldScoped('none')
@Entity('registration_windows')
export class RegistrationWindow {
  /** SHA-256 (hex) of `register@<address>`. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key: string;

  @Column({ type: 'integer' })
  registrations: number;

  /** When the hour ends and the count starts again (real time, ISO 8601). */
  @Column({ type: 'varchar', length: 24 })
  windowEndsAt: string;
}
