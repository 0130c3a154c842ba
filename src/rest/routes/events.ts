import type { RestApp } from '../router.ts';

export function registerEventRoutes(_app: RestApp): void {}
