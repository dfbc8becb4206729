import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { WorldScoped, worldScopeProblems } from './world-scope';

@WorldScoped({ column: 'ownerId' })
@Entity('declared')
class Declared {
  @PrimaryColumn({ type: 'varchar' })
  id: string;

  @Column({ type: 'varchar', nullable: true })
  ownerId: string | null;
}

@Entity('undeclared')
class Undeclared {
  @PrimaryColumn({ type: 'varchar' })
  id: string;

  @Column({ type: 'varchar', nullable: true })
  ownerId: string | null;
}

@WorldScoped('none')
@Entity('mislabelled')
class Mislabelled {
  @PrimaryColumn({ type: 'varchar' })
  id: string;

  @Column({ type: 'varchar' })
  world: string;
}

describe('worldScopeProblems: every entity says whose its rows are', () => {
  it('names an entity without a declaration, and one declared no world’s whose column names a world', async () => {
    const dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [Declared, Undeclared, Mislabelled] });
    await dataSource.initialize();
    try {
      expect(worldScopeProblems(dataSource)).toEqual([
        'Undeclared declares no world scope: add @WorldScoped(…) (src/world/world-scope.ts)',
        "Mislabelled is declared no world's, but its column world names a world",
      ]);
    } finally {
      await dataSource.destroy();
    }
  });
});
