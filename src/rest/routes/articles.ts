import type { RestApp } from '../router.ts';

export function registerArticleRoutes(_app: RestApp): void {}
