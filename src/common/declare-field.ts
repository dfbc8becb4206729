import type { Type } from '@nestjs/common';

/** A field a service adds to another feature's request or answer: its name, and its decorators as they would be written on it. */
export interface DeclaredField {
  readonly name: string;
  readonly decorators: PropertyDecorator[];
}

const declared = new WeakMap<Type, Set<string>>();

/**
 * Declares `field` on `dto` as if its decorators were written there (the last applied first, as
 * TypeScript does), once a process however many apps start: how a service adds its fields to a DTO
 * of the core or of the control layer (docs/development.md, "A service plugs in").
 */
export function declareField(dto: Type, { name, decorators }: DeclaredField): void {
  const names = declared.get(dto) ?? new Set<string>();
  if (names.has(name)) return;
  declared.set(dto, names.add(name));
  Reflect.decorate(decorators, dto.prototype, name);
}
