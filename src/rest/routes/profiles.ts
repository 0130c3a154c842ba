import type { RestApp } from '../router.ts';

export function registerProfileRoutes(_app: RestApp): void {}
