import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** The ceiling of the stack on this machine: Nest + Express answering one static JSON route. */
@Controller()
class StaticController {
  @Get()
  answer(): object {
    return { status: 'ok' };
  }
}

@Module({ controllers: [StaticController] })
class BaselineModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(BaselineModule, { logger: false });
  await app.listen(Number(process.env.PORT));
}

void main();
