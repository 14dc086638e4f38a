import type { AnyRoute } from '../route.ts';
import { getMe } from './me.ts';

/** Every /api/v1 endpoint; the router and the OpenAPI document are both built from this list. */
export const API_ROUTES: AnyRoute[] = [getMe];
