import { Controller, Get, Post } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Access, RouteAccessCheck } from './route-access';

@Controller('v1/declared')
@Access({ role: 'PSP_AI' })
class Declared {
  @Get(':id')
  read(): string {
    return 'read';
  }
}

@Controller('v1/forgotten')
class Forgotten {
  @Post()
  create(): string {
    return 'created';
  }

  @Get()
  @Access({ role: null, audience: 'public' })
  list(): string {
    return 'listed';
  }
}

const start = async (...controllers: (new () => object)[]) => {
  const module = await Test.createTestingModule({ imports: [DiscoveryModule], controllers, providers: [RouteAccessCheck] }).compile();
  return module.createNestApplication({ logger: false }).init();
};

describe('RouteAccessCheck: every route declares who may call it (docs/security.md)', () => {
  it("lists each route with its declaration, in the served document's spelling", async () => {
    const app = await start(Declared);
    expect(app.get(RouteAccessCheck).routes()).toEqual([
      { method: 'GET', path: '/v1/declared/{id}', access: { role: 'PSP_AI' }, handler: 'Declared.read' },
    ]);
    await app.close();
  });

  it("refuses to start while a route declares nothing, naming it; a handler's declaration counts for its route alone", async () => {
    await expect(start(Declared, Forgotten)).rejects.toThrow(
      'Every route declares who may call it (docs/security.md); these do not: POST /v1/forgotten (Forgotten.create)',
    );
  });
});
