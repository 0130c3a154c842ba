import type { RestApp } from '../router.ts';

export function registerSearchRoutes(_app: RestApp): void {}
