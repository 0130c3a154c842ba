import type { RestApp } from '../router.ts';

export function registerOrganisationRoutes(_app: RestApp): void {}
