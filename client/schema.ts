/**
 * Generated from the service's OpenAPI document by client/generate.ts (npm run client:generate). Do not edit:
 * a test fails when this file and the served document drift.
 */

export interface paths {
    "/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account behind the token, its plan and today’s API usage. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The account. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": 42,
                         *         "name": "Example",
                         *         "email": "dev@example.com",
                         *         "plan": {
                         *           "key": "free",
                         *           "label": "example",
                         *           "api_enabled": false,
                         *           "api_daily_limit": 3
                         *         },
                         *         "api_usage": {
                         *           "used_today": 1,
                         *           "limit_today": 3,
                         *           "reset_at": "2026-11-24T09:30:00Z"
                         *         }
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: number;
                                name: string;
                                email: string;
                                plan: {
                                    /** @enum {string} */
                                    key: "free" | "starter" | "pro" | "agency";
                                    label: string;
                                    api_enabled: boolean;
                                    /** @description -1 means unlimited. */
                                    api_daily_limit: number;
                                };
                                api_usage: {
                                    /** @description Calls counted today (UTC), this one included. */
                                    used_today: number;
                                    /** @description -1 means unlimited. */
                                    limit_today: number;
                                    /**
                                     * Format: date-time
                                     * @description Next midnight UTC.
                                     */
                                    reset_at: string;
                                };
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's scans, newest first. */
        get: {
            parameters: {
                query?: {
                    /** @description Results per page, 1 to 50. */
                    limit?: number;
                    /** @description Page number, from 1. */
                    page?: number;
                    /** @description Only scans whose URL contains this text. */
                    domain?: string;
                    status?: "queued" | "running" | "finished" | "failed";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of scans; `result` carries only `scores`. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "public_id": "01jz8q3m5kx7h2v9w4n6p0r1st",
                         *           "report_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                         *           "status": "queued",
                         *           "submitted_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                         *           "region": "eu-central",
                         *           "auth_type": "basic",
                         *           "is_public": true,
                         *           "share_enabled": false,
                         *           "share_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                         *           "requested_at": "2026-11-24T09:30:00Z",
                         *           "target_id": 42,
                         *           "trigger": "request"
                         *         }
                         *       ],
                         *       "meta": {
                         *         "current_page": 3,
                         *         "per_page": 3,
                         *         "total": 3,
                         *         "last_page": 3
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: ({
                                public_id: string;
                                /** Format: uri */
                                report_url: string;
                                /** @enum {unknown} */
                                status: "queued" | "running";
                                /** Format: uri */
                                submitted_url: string;
                                region: string;
                                /**
                                 * @description How an authenticated scan signed in; the credentials never come back.
                                 * @enum {unknown}
                                 */
                                auth_type: "basic" | "header" | null;
                                is_public: boolean;
                                share_enabled: boolean;
                                share_url: string | null;
                                /** Format: date-time */
                                requested_at: string;
                                /** @description Extension: the monitored target (GET /domains) this scan is of, started by its schedule or by its run now (POST /domains/{id}/scans); null for scans started through POST /scans. */
                                target_id: number | null;
                                /**
                                 * @description Extension: what started the scan: `request` (POST /scans, or the web area's scan form), `schedule` (the target's daily schedule), `run_now` (the target's run now) or `confirmation` (the scan a regression candidate starts at once to confirm it). Scheduled and confirmation scans are the only ones outside the hourly scan limit.
                                 * @enum {unknown}
                                 */
                                trigger: "request" | "schedule" | "run_now" | "confirmation";
                            } | {
                                public_id: string;
                                /** Format: uri */
                                report_url: string;
                                /** @constant */
                                status: "finished";
                                /** Format: uri */
                                submitted_url: string;
                                region: string;
                                /**
                                 * @description How an authenticated scan signed in; the credentials never come back.
                                 * @enum {unknown}
                                 */
                                auth_type: "basic" | "header" | null;
                                is_public: boolean;
                                share_enabled: boolean;
                                share_url: string | null;
                                /** Format: date-time */
                                requested_at: string;
                                /** @description Extension: the monitored target (GET /domains) this scan is of, started by its schedule or by its run now (POST /domains/{id}/scans); null for scans started through POST /scans. */
                                target_id: number | null;
                                /**
                                 * @description Extension: what started the scan: `request` (POST /scans, or the web area's scan form), `schedule` (the target's daily schedule), `run_now` (the target's run now) or `confirmation` (the scan a regression candidate starts at once to confirm it). Scheduled and confirmation scans are the only ones outside the hourly scan limit.
                                 * @enum {unknown}
                                 */
                                trigger: "request" | "schedule" | "run_now" | "confirmation";
                                /** Format: date-time */
                                finished_at: string;
                                result: {
                                    scores: {
                                        overall: number;
                                        speed: number;
                                        images: number;
                                        caching: number;
                                        technical: number;
                                        wordpress: number;
                                    };
                                };
                            } | {
                                public_id: string;
                                /** Format: uri */
                                report_url: string;
                                /** @constant */
                                status: "failed";
                                /** Format: uri */
                                submitted_url: string;
                                region: string;
                                /**
                                 * @description How an authenticated scan signed in; the credentials never come back.
                                 * @enum {unknown}
                                 */
                                auth_type: "basic" | "header" | null;
                                is_public: boolean;
                                share_enabled: boolean;
                                share_url: string | null;
                                /** Format: date-time */
                                requested_at: string;
                                /** @description Extension: the monitored target (GET /domains) this scan is of, started by its schedule or by its run now (POST /domains/{id}/scans); null for scans started through POST /scans. */
                                target_id: number | null;
                                /**
                                 * @description Extension: what started the scan: `request` (POST /scans, or the web area's scan form), `schedule` (the target's daily schedule), `run_now` (the target's run now) or `confirmation` (the scan a regression candidate starts at once to confirm it). Scheduled and confirmation scans are the only ones outside the hourly scan limit.
                                 * @enum {unknown}
                                 */
                                trigger: "request" | "schedule" | "run_now" | "confirmation";
                                /** Format: date-time */
                                finished_at: string;
                                error: {
                                    /** @enum {unknown} */
                                    code: "dns_failed" | "connection_failed" | "http_error" | "timeout" | "no_paint" | "blocked_address" | "not_started" | "scan_error";
                                    message: string;
                                };
                            })[];
                            meta?: {
                                current_page: number;
                                per_page: number;
                                total: number;
                                last_page: number;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Start a scan, or get the result of one under 24 hours old for the same URL and region.
         * @description 202 with `cached: false` for a new scan (or one already queued/running for the same URL and region); 200 with `cached: true` for a finished result under 24 hours old, unless `force` is true. Results are reused only within one account, never across accounts, and never for authenticated scans. 429 when the hourly scan limit of the plan is reached.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "url": "https://www.example.com/",
                     *       "region": "local",
                     *       "public": false,
                     *       "force": false,
                     *       "runs": 1,
                     *       "auth": {
                     *         "type": "basic",
                     *         "username": "preview",
                     *         "password": "staging-password"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description http(s) URL; normalised (see docs/scans-and-scoring.md). */
                        url: string;
                        /**
                         * @description Scan location code.
                         * @enum {string}
                         */
                        region?: "local";
                        /** @default false */
                        public?: boolean;
                        /** @default false */
                        force?: boolean;
                        /**
                         * @description Extension: page loads per form factor, each in a fresh browser profile; the result is the median run (closest to the median FCP and TTI, as Lighthouse CI picks it), every run is listed in `result.runs`. Plans allow up to: Free 1, Starter 3, Pro 5, Agency 5 (403 with `required_plan` above that). A cached result is reused only if it had at least as many runs.
                         * @default 1
                         */
                        runs?: number;
                        /**
                         * @description Credentials for protected pages (Pro plan or higher). Sent only to the scanned origin; never returned.
                         * @example {
                         *       "type": "basic",
                         *       "username": "preview",
                         *       "password": "staging-password"
                         *     }
                         */
                        auth?: {
                            /** @enum {string} */
                            type: "basic" | "header";
                            /** @description No control characters and no colon (RFC 7617). */
                            username?: string;
                            /** @description No control characters. */
                            password?: string;
                            /** @description An HTTP field name (an RFC 9110 token). */
                            header_name?: string;
                            /** @description Visible ASCII characters, with spaces and tabs only between them (RFC 9110 field value; no CR, LF or other control characters). */
                            header_value?: string;
                        } & (unknown & unknown);
                    };
                };
            };
            responses: {
                /** @description Cached result. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": "01jz8q3m5kx7h2v9w4n6p0r1st",
                         *         "status": "queued",
                         *         "url": "https://www.example.com/",
                         *         "cached": false,
                         *         "auth_type": "basic",
                         *         "finished_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: string;
                                /** @enum {unknown} */
                                status: "queued" | "running" | "finished" | "failed";
                                /** Format: uri */
                                url: string;
                                cached: boolean;
                                /**
                                 * @description How an authenticated scan signed in; the credentials never come back.
                                 * @enum {unknown}
                                 */
                                auth_type: "basic" | "header" | null;
                                /** @description Extension: when the scan finished; with `cached: true` this is the reused result's age. Null for a scan queued or running. */
                                finished_at: string | null;
                            };
                        };
                    };
                };
                /** @description Scan queued. */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": "01jz8q3m5kx7h2v9w4n6p0r1st",
                         *         "status": "queued",
                         *         "url": "https://www.example.com/",
                         *         "cached": false,
                         *         "auth_type": "basic",
                         *         "finished_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: string;
                                /** @enum {unknown} */
                                status: "queued" | "running" | "finished" | "failed";
                                /** Format: uri */
                                url: string;
                                cached: boolean;
                                /**
                                 * @description How an authenticated scan signed in; the credentials never come back.
                                 * @enum {unknown}
                                 */
                                auth_type: "basic" | "header" | null;
                                /** @description Extension: when the scan finished; with `cached: true` this is the reused result's age. Null for a scan queued or running. */
                                finished_at: string | null;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description The hourly scan limit of the plan (`error: "hourly_scan_limit"`, with `Retry-After`), or the daily API limit. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"] | {
                            message: string;
                            /** @constant */
                            error: "hourly_scan_limit";
                            limit: number;
                            /** Format: date-time */
                            reset_at: string;
                        };
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One scan by public_id: the running, finished or failed shape. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The scan public_id. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The scan. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "public_id": "01jz8q3m5kx7h2v9w4n6p0r1st",
                         *         "report_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                         *         "status": "queued",
                         *         "submitted_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                         *         "region": "eu-central",
                         *         "auth_type": "basic"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                public_id: string;
                                /** Format: uri */
                                report_url: string;
                                /** @enum {unknown} */
                                status: "queued" | "running";
                                /** Format: uri */
                                submitted_url: string;
                                region: string;
                                /**
                                 * @description How an authenticated scan signed in; the credentials never come back.
                                 * @enum {unknown}
                                 */
                                auth_type: "basic" | "header" | null;
                            } | {
                                public_id: string;
                                /** Format: uri */
                                report_url: string;
                                /** @constant */
                                status: "finished";
                                /** Format: uri */
                                submitted_url: string;
                                region: string;
                                /**
                                 * @description How an authenticated scan signed in; the credentials never come back.
                                 * @enum {unknown}
                                 */
                                auth_type: "basic" | "header" | null;
                                is_public: boolean;
                                share_enabled: boolean;
                                share_url: string | null;
                                /** Format: date-time */
                                requested_at: string;
                                /** Format: date-time */
                                finished_at: string;
                                /** @description Extension: the monitored target (GET /domains) this scan is of, started by its schedule or by its run now (POST /domains/{id}/scans); null for scans started through POST /scans. */
                                target_id: number | null;
                                /**
                                 * @description Extension: what started the scan: `request` (POST /scans, or the web area's scan form), `schedule` (the target's daily schedule), `run_now` (the target's run now) or `confirmation` (the scan a regression candidate starts at once to confirm it). Scheduled and confirmation scans are the only ones outside the hourly scan limit.
                                 * @enum {unknown}
                                 */
                                trigger: "request" | "schedule" | "run_now" | "confirmation";
                                result: {
                                    /** Format: uri */
                                    final_url: string;
                                    final_host: string;
                                    http_status: number;
                                    scores: {
                                        overall: number;
                                        speed: number;
                                        images: number;
                                        caching: number;
                                        technical: number;
                                        wordpress: number;
                                    };
                                    summary_short: string;
                                    summary_long: string;
                                    metrics: {
                                        ttfb_ms: number;
                                        desktop: {
                                            fcp_ms: number;
                                            lcp_ms: number;
                                            cls: number;
                                            tbt_ms: number;
                                            request_count: number;
                                            total_bytes: number;
                                        };
                                        mobile: {
                                            fcp_ms: number;
                                            lcp_ms: number;
                                            cls: number;
                                            tbt_ms: number;
                                            request_count: number;
                                            total_bytes: number;
                                        };
                                    };
                                    screenshots: {
                                        desktop_url: string | null;
                                        mobile_url: string | null;
                                        filmstrip: {
                                            desktop: string[];
                                            mobile: string[];
                                        };
                                        filmstrip_frames: {
                                            desktop: {
                                                /** Format: uri */
                                                url: string;
                                                ms: number;
                                                /** @enum {unknown} */
                                                event: "fcp" | "lcp" | null;
                                            }[];
                                            mobile: {
                                                /** Format: uri */
                                                url: string;
                                                ms: number;
                                                /** @enum {unknown} */
                                                event: "fcp" | "lcp" | null;
                                            }[];
                                        };
                                    };
                                    findings: {
                                        /** @enum {unknown} */
                                        category: "speed" | "images" | "caching" | "technical" | "wordpress";
                                        /** @description Stable, machine-readable; see core/scoring/README.md. */
                                        code: string;
                                        /** @enum {unknown} */
                                        severity: "critical" | "warning" | "info";
                                        title: string;
                                        message: string;
                                        recommendation: string;
                                        /** @description Extension: the form factors the finding was seen on (one finding for both). Absent for findings about the page as a whole. */
                                        form_factors?: ("desktop" | "mobile")[];
                                        /** @description Extension: the resources or elements behind the finding, from Lighthouse's audit and insight details or the page's responses; at most 10, largest first. */
                                        items?: {
                                            url?: string;
                                            selector?: string;
                                            snippet?: string;
                                            label?: string;
                                            box?: {
                                                /** @description The element's box in CSS pixels of the page as Lighthouse laid it out for that form factor; the screenshot shows the top of the page at the form factor's viewport. */
                                                desktop?: {
                                                    top: number;
                                                    left: number;
                                                    width: number;
                                                    height: number;
                                                };
                                                /** @description The element's box in CSS pixels of the page as Lighthouse laid it out for that form factor; the screenshot shows the top of the page at the form factor's viewport. */
                                                mobile?: {
                                                    top: number;
                                                    left: number;
                                                    width: number;
                                                    height: number;
                                                };
                                            };
                                            transfer_bytes?: number;
                                            wasted_bytes?: number;
                                            wasted_ms?: number;
                                            main_thread_ms?: number;
                                            /** @description The form factors whose Lighthouse run listed it; absent for items read from the page’s own responses. */
                                            form_factors?: ("desktop" | "mobile")[];
                                            /**
                                             * @description Layout shifts: what made the content move, the item naming the culprit (the image without dimensions, the web font or iframe URL); `unexplained` when Lighthouse named no cause (the item is then the element that moved).
                                             * @enum {unknown}
                                             */
                                            cause?: "unsized-image" | "web-font" | "injected-iframe" | "unexplained";
                                            /** @description Layout shifts: the element the culprit moved (its selector). */
                                            moved?: string;
                                            /** @description Layout shifts: the shift score the culprit caused. */
                                            shift?: number;
                                            /** @description Images: what would make the image smaller (Lighthouse's image delivery insight). */
                                            fixes?: ("responsive-size" | "modern-format" | "compression" | "video-format")[];
                                            /** @description Images shown smaller: the file’s size in pixels. */
                                            file_px?: string;
                                            /** @description Images shown smaller: the shown size in pixels. */
                                            shown_px?: string;
                                            /** @description Legacy JavaScript: the polyfills and transforms found in the script. */
                                            signals?: string[];
                                            /** @description Duplicated JavaScript: the scripts that each carry the module named in `label`. */
                                            copies?: string[];
                                            /** @description Third-party facades: facades known for the product named in `label`. */
                                            facades?: string[];
                                            /** @description Back/forward cache: Chromium's reason the page was not restored (its NotRestoredReason). */
                                            reason?: string;
                                            /**
                                             * @description Back/forward cache: `actionable` (the page can fix it), `pending-support` (Chromium does not support it yet), `circumstantial`.
                                             * @enum {unknown}
                                             */
                                            blocker?: "actionable" | "pending-support" | "circumstantial";
                                            /** @description Critical request chains: when the request ended, from the start of the navigation. */
                                            end_ms?: number;
                                            /** @description document.write() calls: the line of the call in the script named in `url` (the page itself for an inline script), counted from 1. */
                                            line?: number;
                                            /** @description document.write() calls: the column of the call on its line, counted from 1. */
                                            column?: number;
                                        }[];
                                        /** @description Extension: Lighthouse’s estimated savings per form factor. */
                                        savings?: {
                                            /** @description Lighthouse's estimate: `ms`, the largest saving on FCP, LCP, TBT or INP (its metricSavings, else the opportunity's overallSavingsMs); `bytes`, the bytes that could be saved. Null where Lighthouse gives none. */
                                            desktop?: {
                                                ms: number | null;
                                                bytes: number | null;
                                            };
                                            /** @description Lighthouse's estimate: `ms`, the largest saving on FCP, LCP, TBT or INP (its metricSavings, else the opportunity's overallSavingsMs); `bytes`, the bytes that could be saved. Null where Lighthouse gives none. */
                                            mobile?: {
                                                ms: number | null;
                                                bytes: number | null;
                                            };
                                        };
                                        /** @description Extension, metric findings only: the metric measured on each form factor (ms, or unitless for CLS). */
                                        values?: {
                                            desktop?: number;
                                            mobile?: number;
                                        };
                                        /** @description Extension: the codes of Lighthouse's specific diagnosis behind the finding (lcp.lazy-loaded, cls.unsized-image, ...; core/scoring/README.md), each a sentence of `message` and, where it has one, of `recommendation`. */
                                        clues?: string[];
                                        /** @description Extension: what fixing it saves, as findings are ordered: milliseconds on a metric (the largest of the form factors), then bytes. Absent where nothing is stated; findings without it follow those with it. */
                                        impact?: {
                                            ms: number;
                                            bytes: number;
                                        };
                                        /** @description Extension: 1 to 3 for the 3 findings that save most (fix first), in order; absent on the others. */
                                        priority?: number;
                                    }[];
                                    /** @description Extension: every run (page load) of each form factor, in the order loaded, one of them marked `median` (the scan’s metrics, findings and images are its). A scan has as many runs as asked for in POST /scans; absent from results stored before runs existed. */
                                    runs?: {
                                        desktop: {
                                            /** @description Lighthouse's performance score of this run, 0-100. */
                                            performance_score: number | null;
                                            fcp_ms: number;
                                            lcp_ms: number;
                                            tbt_ms: number;
                                            cls: number;
                                            si_ms: number;
                                            interactive_ms: number;
                                            /** @description Lighthouse's CPU benchmark of the machine during the run; lower is busier. */
                                            benchmark_index: number | null;
                                            lighthouse_version: string;
                                            chromium_version: string;
                                            /** @description The benchmark index stayed below the minimum after one repeat: the machine was too busy to trust this run. */
                                            overloaded: boolean;
                                            /** @description This run replaced one whose benchmark index was below the minimum. */
                                            repeated: boolean;
                                            /** @description The run the result (metrics, findings, screenshots) comes from. */
                                            median: boolean;
                                        }[];
                                        mobile: {
                                            /** @description Lighthouse's performance score of this run, 0-100. */
                                            performance_score: number | null;
                                            fcp_ms: number;
                                            lcp_ms: number;
                                            tbt_ms: number;
                                            cls: number;
                                            si_ms: number;
                                            interactive_ms: number;
                                            /** @description Lighthouse's CPU benchmark of the machine during the run; lower is busier. */
                                            benchmark_index: number | null;
                                            lighthouse_version: string;
                                            chromium_version: string;
                                            /** @description The benchmark index stayed below the minimum after one repeat: the machine was too busy to trust this run. */
                                            overloaded: boolean;
                                            /** @description This run replaced one whose benchmark index was below the minimum. */
                                            repeated: boolean;
                                            /** @description The run the result (metrics, findings, screenshots) comes from. */
                                            median: boolean;
                                        }[];
                                        /** @description The overall score of each run on its own (its desktop and mobile loads scored together), in order: the spread around `scores.overall`. */
                                        overall: number[];
                                    };
                                    /** @description Extension: what explains each form factor's load, from Lighthouse's insights (lists of at most 10). Absent from results stored before it existed. */
                                    diagnostics?: {
                                        desktop: {
                                            lcp: {
                                                /** @description The LCP element (Lighthouse's lcp-breakdown-insight). */
                                                element: {
                                                    selector: string;
                                                    /** @description The element's opening HTML tag as Lighthouse gives it, cut to 200 characters. */
                                                    snippet: string;
                                                    label: string;
                                                    box: {
                                                        top: number;
                                                        left: number;
                                                        width: number;
                                                        height: number;
                                                    } | null;
                                                } | null;
                                                phases: {
                                                    ttfb_ms: number;
                                                    load_delay_ms: number | null;
                                                    load_time_ms: number | null;
                                                    render_delay_ms: number;
                                                } | null;
                                                discovery?: {
                                                    lazy_loaded: boolean;
                                                    fetchpriority_high: boolean;
                                                    in_initial_html: boolean;
                                                } | null;
                                            };
                                            /** @description Elements that shifted (cls-culprits-insight), with their layout-shift score, their share of the shifts listed, and Lighthouse's likely causes. */
                                            layout_shifts: {
                                                element: {
                                                    selector: string;
                                                    /** @description The element's opening HTML tag as Lighthouse gives it, cut to 200 characters. */
                                                    snippet: string;
                                                    label: string;
                                                    box: {
                                                        top: number;
                                                        left: number;
                                                        width: number;
                                                        height: number;
                                                    } | null;
                                                };
                                                score: number;
                                                share: number;
                                                causes: string[];
                                                /** @description What caused the shift: the image without dimensions (element), the web font or iframe (url); empty when Lighthouse named none. Absent from older results. */
                                                culprits?: {
                                                    /** @enum {unknown} */
                                                    cause: "unsized-image" | "web-font" | "injected-iframe";
                                                    element?: {
                                                        selector: string;
                                                        /** @description The element's opening HTML tag as Lighthouse gives it, cut to 200 characters. */
                                                        snippet: string;
                                                        label: string;
                                                        box: {
                                                            top: number;
                                                            left: number;
                                                            width: number;
                                                            height: number;
                                                        } | null;
                                                    };
                                                    url?: string;
                                                }[];
                                            }[];
                                            render_blocking: {
                                                url: string;
                                                transfer_bytes: number;
                                                wasted_ms: number;
                                            }[];
                                            third_parties: {
                                                entity: string;
                                                /** @description false: not a known third party; Lighthouse names it by its domain. */
                                                recognized: boolean;
                                                transfer_bytes: number;
                                                main_thread_ms: number;
                                                /** @description The entity's requests, the largest first; absent from older results. */
                                                urls?: string[];
                                            }[];
                                            main_thread: {
                                                category: string;
                                                label: string;
                                                ms: number;
                                            }[];
                                            /** @description The longest chain of critical requests (network-dependency-tree-insight), the document first: each request found only once the one before it arrived. Null without one; absent from older results. */
                                            critical_chain?: {
                                                length: number;
                                                duration_ms: number;
                                                requests: {
                                                    url: string;
                                                    end_ms: number;
                                                    transfer_bytes: number;
                                                }[];
                                            } | null;
                                        };
                                        mobile: {
                                            lcp: {
                                                /** @description The LCP element (Lighthouse's lcp-breakdown-insight). */
                                                element: {
                                                    selector: string;
                                                    /** @description The element's opening HTML tag as Lighthouse gives it, cut to 200 characters. */
                                                    snippet: string;
                                                    label: string;
                                                    box: {
                                                        top: number;
                                                        left: number;
                                                        width: number;
                                                        height: number;
                                                    } | null;
                                                } | null;
                                                phases: {
                                                    ttfb_ms: number;
                                                    load_delay_ms: number | null;
                                                    load_time_ms: number | null;
                                                    render_delay_ms: number;
                                                } | null;
                                                discovery?: {
                                                    lazy_loaded: boolean;
                                                    fetchpriority_high: boolean;
                                                    in_initial_html: boolean;
                                                } | null;
                                            };
                                            /** @description Elements that shifted (cls-culprits-insight), with their layout-shift score, their share of the shifts listed, and Lighthouse's likely causes. */
                                            layout_shifts: {
                                                element: {
                                                    selector: string;
                                                    /** @description The element's opening HTML tag as Lighthouse gives it, cut to 200 characters. */
                                                    snippet: string;
                                                    label: string;
                                                    box: {
                                                        top: number;
                                                        left: number;
                                                        width: number;
                                                        height: number;
                                                    } | null;
                                                };
                                                score: number;
                                                share: number;
                                                causes: string[];
                                                /** @description What caused the shift: the image without dimensions (element), the web font or iframe (url); empty when Lighthouse named none. Absent from older results. */
                                                culprits?: {
                                                    /** @enum {unknown} */
                                                    cause: "unsized-image" | "web-font" | "injected-iframe";
                                                    element?: {
                                                        selector: string;
                                                        /** @description The element's opening HTML tag as Lighthouse gives it, cut to 200 characters. */
                                                        snippet: string;
                                                        label: string;
                                                        box: {
                                                            top: number;
                                                            left: number;
                                                            width: number;
                                                            height: number;
                                                        } | null;
                                                    };
                                                    url?: string;
                                                }[];
                                            }[];
                                            render_blocking: {
                                                url: string;
                                                transfer_bytes: number;
                                                wasted_ms: number;
                                            }[];
                                            third_parties: {
                                                entity: string;
                                                /** @description false: not a known third party; Lighthouse names it by its domain. */
                                                recognized: boolean;
                                                transfer_bytes: number;
                                                main_thread_ms: number;
                                                /** @description The entity's requests, the largest first; absent from older results. */
                                                urls?: string[];
                                            }[];
                                            main_thread: {
                                                category: string;
                                                label: string;
                                                ms: number;
                                            }[];
                                            /** @description The longest chain of critical requests (network-dependency-tree-insight), the document first: each request found only once the one before it arrived. Null without one; absent from older results. */
                                            critical_chain?: {
                                                length: number;
                                                duration_ms: number;
                                                requests: {
                                                    url: string;
                                                    end_ms: number;
                                                    transfer_bytes: number;
                                                }[];
                                            } | null;
                                        };
                                    };
                                    /** @description Extension: how the scores were computed. Scores of different versions measure differently; compare and history charts mark a change of version. */
                                    scoring?: {
                                        /** @description The scoring version the scores were computed under. */
                                        version: number;
                                        /** @description Categories with nothing to judge on this page (no check applies: caching without static resources or text, WordPress on other sites). Their score reads 100 and does not count in `overall`. */
                                        not_applicable: ("speed" | "images" | "caching" | "technical" | "wordpress")[];
                                    };
                                    /** @description Extension: Lighthouse's four categories (performance, accessibility, best practices, SEO) of this scan. Absent from results stored before scans ran all four. */
                                    lighthouse?: {
                                        /** @description Lighthouse's own score of each category (0–100, as its report and PageSpeed Insights show it; null where it computed none), of the run the result comes from. They are Lighthouse's; `scores` are ours. */
                                        categories: {
                                            desktop: {
                                                performance: number | null;
                                                accessibility: number | null;
                                                best_practices: number | null;
                                                seo: number | null;
                                            };
                                            mobile: {
                                                performance: number | null;
                                                accessibility: number | null;
                                                best_practices: number | null;
                                                seo: number | null;
                                            };
                                        };
                                        /** @description The accessibility, best-practices and SEO audits Lighthouse failed (a score under 0.9, as its report counts failed) on either form factor, the heaviest first. Performance's are in `findings`. */
                                        failed_audits: {
                                            /** @description Lighthouse's audit id, e.g. `image-alt`, `meta-description`. */
                                            id: string;
                                            /** @description The categories that count it (some audits are in accessibility and SEO). */
                                            categories: ("accessibility" | "best_practices" | "seo")[];
                                            /** @description Lighthouse's title of the failed audit, in the caller's language. */
                                            title: string;
                                            /** @description Lighthouse's link to learn more. */
                                            help_url: string | null;
                                            /** @description The audit's weight in its category's score; 0: listed by Lighthouse but not counted. */
                                            weight: number;
                                            /** @description Lighthouse's audit score (the lower form factor's). */
                                            score: number;
                                            /** @description The form factors it failed on. */
                                            form_factors: ("desktop" | "mobile")[];
                                            /** @description How many items Lighthouse listed (more than `items` holds when it listed more). */
                                            item_count: number;
                                            /** @description What Lighthouse named: an element (selector, snippet, label), a resource (url) or a message (text); its first 10. */
                                            items: {
                                                selector?: string;
                                                snippet?: string;
                                                label?: string;
                                                url?: string;
                                                text?: string;
                                                form_factors: ("desktop" | "mobile")[];
                                            }[];
                                        }[];
                                    };
                                };
                                /** @description Extension: this scan compared with the previous finished scan of the same URL (the one its report’s “Scan again” was pressed on, else the latest that finished before it), each metric with the compare page’s verdict (rank test with enough runs on both sides, else the noise band; docs/verdicts.md). Speed Index only where both scans have runs stored. Null when the account has no earlier finished scan of the URL. */
                                previous: {
                                    /** @description The previous scan’s public_id. */
                                    scan_id: string;
                                    /** Format: date-time */
                                    finished_at: string;
                                    /** Format: uri */
                                    report_url: string;
                                    /**
                                     * Format: uri
                                     * @description The two scans on the web area’s compare page.
                                     */
                                    compare_url: string;
                                    /** @description The previous scan’s scoring version: scores of different versions measure differently. */
                                    scoring_version: number;
                                    /** @description The comparison in one sentence (LCP, TBT and CLS: each real change with its size, the rest unchanged), in the language of Accept-Language. */
                                    summary: string;
                                    /** @description The scores both scans judged (a category not applicable on either side is left out). */
                                    scores: {
                                        overall?: components["schemas"]["ScanMetricChange"];
                                        speed?: components["schemas"]["ScanMetricChange"];
                                        images?: components["schemas"]["ScanMetricChange"];
                                        caching?: components["schemas"]["ScanMetricChange"];
                                        technical?: components["schemas"]["ScanMetricChange"];
                                        wordpress?: components["schemas"]["ScanMetricChange"];
                                    };
                                    metrics: {
                                        ttfb_ms?: components["schemas"]["ScanMetricChange"];
                                        desktop: {
                                            fcp_ms?: components["schemas"]["ScanMetricChange"];
                                            lcp_ms?: components["schemas"]["ScanMetricChange"];
                                            cls?: components["schemas"]["ScanMetricChange"];
                                            tbt_ms?: components["schemas"]["ScanMetricChange"];
                                            si_ms?: components["schemas"]["ScanMetricChange"];
                                            request_count?: components["schemas"]["ScanMetricChange"];
                                            total_bytes?: components["schemas"]["ScanMetricChange"];
                                        };
                                        mobile: {
                                            fcp_ms?: components["schemas"]["ScanMetricChange"];
                                            lcp_ms?: components["schemas"]["ScanMetricChange"];
                                            cls?: components["schemas"]["ScanMetricChange"];
                                            tbt_ms?: components["schemas"]["ScanMetricChange"];
                                            si_ms?: components["schemas"]["ScanMetricChange"];
                                            request_count?: components["schemas"]["ScanMetricChange"];
                                            total_bytes?: components["schemas"]["ScanMetricChange"];
                                        };
                                    };
                                } | null;
                            } | {
                                public_id: string;
                                /** Format: uri */
                                report_url: string;
                                /** @constant */
                                status: "failed";
                                /** Format: uri */
                                submitted_url: string;
                                region: string;
                                /**
                                 * @description How an authenticated scan signed in; the credentials never come back.
                                 * @enum {unknown}
                                 */
                                auth_type: "basic" | "header" | null;
                                is_public: boolean;
                                share_enabled: boolean;
                                share_url: string | null;
                                /** Format: date-time */
                                requested_at: string;
                                /** Format: date-time */
                                finished_at: string;
                                /** @description Extension: the monitored target (GET /domains) this scan is of, started by its schedule or by its run now (POST /domains/{id}/scans); null for scans started through POST /scans. */
                                target_id: number | null;
                                /**
                                 * @description Extension: what started the scan: `request` (POST /scans, or the web area's scan form), `schedule` (the target's daily schedule), `run_now` (the target's run now) or `confirmation` (the scan a regression candidate starts at once to confirm it). Scheduled and confirmation scans are the only ones outside the hourly scan limit.
                                 * @enum {unknown}
                                 */
                                trigger: "request" | "schedule" | "run_now" | "confirmation";
                                error: {
                                    /** @enum {unknown} */
                                    code: "dns_failed" | "connection_failed" | "http_error" | "timeout" | "no_paint" | "blocked_address" | "not_started" | "scan_error";
                                    message: string;
                                };
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scans/{id}/share/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable the share link (Starter plan or higher); the same URL every time. */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The scan public_id. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /** @example {} */
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Sharing state. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "share_enabled": true,
                         *         "share_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                         *         "signed_in": "example"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @constant */
                                share_enabled: true;
                                /** Format: uri */
                                share_url: string;
                                /** @description Only for a scan made with credentials: says that the shared report shows the page as a signed-in visitor saw it, screenshots included (they are not redacted). */
                                signed_in?: string;
                            } | {
                                /** @constant */
                                share_enabled: false;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scans/{id}/share/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable the share link; the token is kept for re-enabling. */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The scan public_id. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /** @example {} */
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description Sharing state. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "share_enabled": true,
                         *         "share_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                         *         "signed_in": "example"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @constant */
                                share_enabled: true;
                                /** Format: uri */
                                share_url: string;
                                /** @description Only for a scan made with credentials: says that the shared report shows the page as a signed-in visitor saw it, screenshots included (they are not redacted). */
                                signed_in?: string;
                            } | {
                                /** @constant */
                                share_enabled: false;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scans/{id}/lighthouse/{form_factor}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The scan's whole Lighthouse result (LHR JSON) of one form factor, as a download.
         * @description Lighthouse's own JSON result of the run the scan's values come from (the median run when the scan has several), as Lighthouse wrote it, not wrapped in `data`, with `Content-Disposition: attachment`; it opens in Lighthouse's viewer. Credentials of an authenticated scan are replaced by `[redacted]` wherever Lighthouse recorded them (URLs, element text). Kept for the owner's plan's retention, in days after the scan: Free 7, Starter 30, Pro 90, Agency 365. Sent gzip-compressed to clients that accept it. 404 for another user's or an unknown scan, a scan that has not finished or has failed, and a result past its retention.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The scan public_id. */
                    id: string;
                    /** @description `desktop` or `mobile`. */
                    form_factor: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Lighthouse's result object. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "lighthouseVersion": "example",
                         *       "requestedUrl": "example",
                         *       "mainDocumentUrl": "example",
                         *       "finalDisplayedUrl": "example",
                         *       "fetchTime": "example",
                         *       "configSettings": {
                         *         "formFactor": "desktop"
                         *       },
                         *       "audits": {},
                         *       "categories": {}
                         *     }
                         */
                        "application/json": {
                            lighthouseVersion: string;
                            requestedUrl: string;
                            mainDocumentUrl?: string;
                            finalDisplayedUrl: string;
                            fetchTime: string;
                            configSettings?: {
                                /** @enum {string} */
                                formFactor?: "desktop" | "mobile";
                            };
                            audits: Record<string, never>;
                            categories: Record<string, never>;
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's monitored scan targets, oldest first. */
        get: {
            parameters: {
                query?: {
                    /** @description Results per page, 1 to 50. */
                    limit?: number;
                    /** @description Page number, from 1. */
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of targets. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": 42,
                         *           "host": "www.example.com",
                         *           "url": "https://www.example.com/",
                         *           "schedule": "daily",
                         *           "is_active": true,
                         *           "last_dispatched_at": "2026-11-24T09:30:00Z",
                         *           "region": "eu-central",
                         *           "thresholds": {
                         *             "overall": {
                         *               "warning": 1,
                         *               "critical": 1
                         *             },
                         *             "speed": {
                         *               "warning": 1,
                         *               "critical": 1
                         *             },
                         *             "images": {
                         *               "warning": 1,
                         *               "critical": 1
                         *             },
                         *             "caching": {
                         *               "warning": 1,
                         *               "critical": 1
                         *             },
                         *             "technical": {
                         *               "warning": 1,
                         *               "critical": 1
                         *             },
                         *             "wordpress": {
                         *               "warning": 1,
                         *               "critical": 1
                         *             }
                         *           },
                         *           "budgets": {
                         *             "mobile": {
                         *               "lcp_ms": 1200,
                         *               "fcp_ms": 1200,
                         *               "tbt_ms": 1200,
                         *               "cls": 0.05,
                         *               "ttfb_ms": 1200
                         *             },
                         *             "desktop": {
                         *               "lcp_ms": 1200,
                         *               "fcp_ms": 1200,
                         *               "tbt_ms": 1200,
                         *               "cls": 0.05,
                         *               "ttfb_ms": 1200
                         *             },
                         *             "scores": {
                         *               "overall": 1,
                         *               "speed": 1,
                         *               "images": 1,
                         *               "caching": 1,
                         *               "technical": 1,
                         *               "wordpress": 1
                         *             },
                         *             "lighthouse": {
                         *               "mobile": {
                         *                 "performance": 1,
                         *                 "accessibility": 1,
                         *                 "best_practices": 1,
                         *                 "seo": 1
                         *               },
                         *               "desktop": {
                         *                 "performance": 1,
                         *                 "accessibility": 1,
                         *                 "best_practices": 1,
                         *                 "seo": 1
                         *               }
                         *             }
                         *           },
                         *           "created_at": "2026-11-24T09:30:00Z",
                         *           "next_scan_at": "2026-11-24T09:30:00Z"
                         *         }
                         *       ],
                         *       "meta": {
                         *         "current_page": 3,
                         *         "per_page": 3,
                         *         "total": 3,
                         *         "last_page": 3
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["Target"][];
                            meta?: {
                                current_page: number;
                                per_page: number;
                                total: number;
                                last_page: number;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Monitor a URL: a daily scan at a start time spread over the day, with alert thresholds.
         * @description The URL is normalised like a scan's. 403 when the plan keeps no more targets (`required_plan` names the plan that keeps more); 422 for an invalid URL, thresholds whose `critical` is above `warning`, or a URL already monitored in that region; 503 when the schedule cannot be created (nothing is stored).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "url": "https://www.example.com/",
                     *       "region": "local",
                     *       "thresholds": {
                     *         "overall": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         },
                     *         "speed": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         },
                     *         "images": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         },
                     *         "caching": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         },
                     *         "technical": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         },
                     *         "wordpress": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         }
                     *       },
                     *       "budgets": {
                     *         "mobile": {
                     *           "lcp_ms": 1200,
                     *           "fcp_ms": 1200,
                     *           "tbt_ms": 1200,
                     *           "cls": 0.05,
                     *           "ttfb_ms": 1200
                     *         },
                     *         "desktop": {
                     *           "lcp_ms": 1200,
                     *           "fcp_ms": 1200,
                     *           "tbt_ms": 1200,
                     *           "cls": 0.05,
                     *           "ttfb_ms": 1200
                     *         },
                     *         "scores": {
                     *           "overall": 1,
                     *           "speed": 1,
                     *           "images": 1,
                     *           "caching": 1,
                     *           "technical": 1,
                     *           "wordpress": 1
                     *         },
                     *         "lighthouse": {
                     *           "mobile": {
                     *             "performance": 1,
                     *             "accessibility": 1,
                     *             "best_practices": 1,
                     *             "seo": 1
                     *           },
                     *           "desktop": {
                     *             "performance": 1,
                     *             "accessibility": 1,
                     *             "best_practices": 1,
                     *             "seo": 1
                     *           }
                     *         }
                     *       },
                     *       "is_active": true
                     *     }
                     */
                    "application/json": {
                        /** @description http(s) URL; normalised like a scan URL. */
                        url: string;
                        /**
                         * @description Scan location code.
                         * @enum {string}
                         */
                        region?: "local";
                        /** @description Alert thresholds per score (0–100): `overall` is required, the categories optional. Default `{"overall": {"warning": 70, "critical": 50}}`. */
                        thresholds?: {
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            overall: {
                                warning: number;
                                critical: number;
                            };
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            speed?: {
                                warning: number;
                                critical: number;
                            };
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            images?: {
                                warning: number;
                                critical: number;
                            };
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            caching?: {
                                warning: number;
                                critical: number;
                            };
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            technical?: {
                                warning: number;
                                critical: number;
                            };
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            wordpress?: {
                                warning: number;
                                critical: number;
                            };
                        };
                        budgets?: components["schemas"]["Budgets"];
                        /**
                         * @description False: stored paused.
                         * @default true
                         */
                        is_active?: boolean;
                    };
                };
            };
            responses: {
                /** @description The new target. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": 42,
                         *         "host": "www.example.com",
                         *         "url": "https://www.example.com/",
                         *         "schedule": "daily",
                         *         "is_active": true,
                         *         "last_dispatched_at": "2026-11-24T09:30:00Z",
                         *         "region": "eu-central",
                         *         "thresholds": {
                         *           "overall": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           },
                         *           "speed": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           },
                         *           "images": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           },
                         *           "caching": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           },
                         *           "technical": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           },
                         *           "wordpress": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           }
                         *         },
                         *         "budgets": {
                         *           "mobile": {
                         *             "lcp_ms": 1200,
                         *             "fcp_ms": 1200,
                         *             "tbt_ms": 1200,
                         *             "cls": 0.05,
                         *             "ttfb_ms": 1200
                         *           },
                         *           "desktop": {
                         *             "lcp_ms": 1200,
                         *             "fcp_ms": 1200,
                         *             "tbt_ms": 1200,
                         *             "cls": 0.05,
                         *             "ttfb_ms": 1200
                         *           },
                         *           "scores": {
                         *             "overall": 1,
                         *             "speed": 1,
                         *             "images": 1,
                         *             "caching": 1,
                         *             "technical": 1,
                         *             "wordpress": 1
                         *           },
                         *           "lighthouse": {
                         *             "mobile": {
                         *               "performance": 1,
                         *               "accessibility": 1,
                         *               "best_practices": 1,
                         *               "seo": 1
                         *             },
                         *             "desktop": {
                         *               "performance": 1,
                         *               "accessibility": 1,
                         *               "best_practices": 1,
                         *               "seo": 1
                         *             }
                         *           }
                         *         },
                         *         "created_at": "2026-11-24T09:30:00Z",
                         *         "next_scan_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["Target"];
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description Temporal is unreachable; nothing was changed. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/domains/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The target's last 30 finished scans, newest first. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The target id from GET /domains. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description History items. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "score": 87,
                         *           "created_at": "2026-11-24T09:30:00Z",
                         *           "region": "eu-central"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description The overall score. */
                                score: number;
                                /**
                                 * Format: date-time
                                 * @description When the scan finished (its result was made).
                                 */
                                created_at: string;
                                region: string;
                            }[];
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/domains/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Stop monitoring: the target and its schedule go; its scans stay in GET /scans. */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The target id from GET /domains. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description Temporal is unreachable; nothing was changed. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Pause or resume a target (its schedule follows), replace its thresholds, or move it to another region. */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The target id from GET /domains. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "is_active": true,
                     *       "thresholds": {
                     *         "overall": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         },
                     *         "speed": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         },
                     *         "images": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         },
                     *         "caching": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         },
                     *         "technical": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         },
                     *         "wordpress": {
                     *           "warning": 1,
                     *           "critical": 1
                     *         }
                     *       },
                     *       "budgets": {
                     *         "mobile": {
                     *           "lcp_ms": 1200,
                     *           "fcp_ms": 1200,
                     *           "tbt_ms": 1200,
                     *           "cls": 0.05,
                     *           "ttfb_ms": 1200
                     *         },
                     *         "desktop": {
                     *           "lcp_ms": 1200,
                     *           "fcp_ms": 1200,
                     *           "tbt_ms": 1200,
                     *           "cls": 0.05,
                     *           "ttfb_ms": 1200
                     *         },
                     *         "scores": {
                     *           "overall": 1,
                     *           "speed": 1,
                     *           "images": 1,
                     *           "caching": 1,
                     *           "technical": 1,
                     *           "wordpress": 1
                     *         },
                     *         "lighthouse": {
                     *           "mobile": {
                     *             "performance": 1,
                     *             "accessibility": 1,
                     *             "best_practices": 1,
                     *             "seo": 1
                     *           },
                     *           "desktop": {
                     *             "performance": 1,
                     *             "accessibility": 1,
                     *             "best_practices": 1,
                     *             "seo": 1
                     *           }
                     *         }
                     *       },
                     *       "region": "local"
                     *     }
                     */
                    "application/json": {
                        is_active?: boolean;
                        /** @description Alert thresholds per score (0–100): `overall` is required, the categories optional. Default `{"overall": {"warning": 70, "critical": 50}}`. */
                        thresholds?: {
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            overall: {
                                warning: number;
                                critical: number;
                            };
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            speed?: {
                                warning: number;
                                critical: number;
                            };
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            images?: {
                                warning: number;
                                critical: number;
                            };
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            caching?: {
                                warning: number;
                                critical: number;
                            };
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            technical?: {
                                warning: number;
                                critical: number;
                            };
                            /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                            wordpress?: {
                                warning: number;
                                critical: number;
                            };
                        };
                        budgets?: components["schemas"]["Budgets"];
                        /**
                         * @description Scan location code.
                         * @enum {string}
                         */
                        region?: "local";
                    };
                };
            };
            responses: {
                /** @description The target. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": 42,
                         *         "host": "www.example.com",
                         *         "url": "https://www.example.com/",
                         *         "schedule": "daily",
                         *         "is_active": true,
                         *         "last_dispatched_at": "2026-11-24T09:30:00Z",
                         *         "region": "eu-central",
                         *         "thresholds": {
                         *           "overall": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           },
                         *           "speed": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           },
                         *           "images": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           },
                         *           "caching": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           },
                         *           "technical": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           },
                         *           "wordpress": {
                         *             "warning": 1,
                         *             "critical": 1
                         *           }
                         *         },
                         *         "budgets": {
                         *           "mobile": {
                         *             "lcp_ms": 1200,
                         *             "fcp_ms": 1200,
                         *             "tbt_ms": 1200,
                         *             "cls": 0.05,
                         *             "ttfb_ms": 1200
                         *           },
                         *           "desktop": {
                         *             "lcp_ms": 1200,
                         *             "fcp_ms": 1200,
                         *             "tbt_ms": 1200,
                         *             "cls": 0.05,
                         *             "ttfb_ms": 1200
                         *           },
                         *           "scores": {
                         *             "overall": 1,
                         *             "speed": 1,
                         *             "images": 1,
                         *             "caching": 1,
                         *             "technical": 1,
                         *             "wordpress": 1
                         *           },
                         *           "lighthouse": {
                         *             "mobile": {
                         *               "performance": 1,
                         *               "accessibility": 1,
                         *               "best_practices": 1,
                         *               "seo": 1
                         *             },
                         *             "desktop": {
                         *               "performance": 1,
                         *               "accessibility": 1,
                         *               "best_practices": 1,
                         *               "seo": 1
                         *             }
                         *           }
                         *         },
                         *         "created_at": "2026-11-24T09:30:00Z",
                         *         "next_scan_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: components["schemas"]["Target"];
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description Temporal is unreachable; nothing was changed. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/domains/{id}/scans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run now: scan the target at once, as its schedule would (its history, alerts and runs of the plan).
         * @description Starts a scan of the target now, recorded as the target's scan like a scheduled one (`target_id`, `trigger: "run_now"`, the plan's page loads per scheduled scan, never a reused result), and sets `last_dispatched_at`; its alerts are evaluated when it finishes. A paused target may be run now; its schedule stays paused. It counts against the hourly scan limit like POST /scans (429 `hourly_scan_limit`), and like any call against the daily API limit. While a scan of the target is queued or running, that scan is the answer (no second one). 404 for a target that is not the caller's; 503 when the scan cannot be started (it is recorded as failed and does not count). Follow it with GET /scans/{id}.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The target id from GET /domains. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /** @example {} */
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description The scan, queued (or the one of the target already queued or running); `cached` is always false. */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": "01jz8q3m5kx7h2v9w4n6p0r1st",
                         *         "status": "queued",
                         *         "url": "https://www.example.com/",
                         *         "cached": false,
                         *         "auth_type": "basic",
                         *         "finished_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: string;
                                /** @enum {unknown} */
                                status: "queued" | "running" | "finished" | "failed";
                                /** Format: uri */
                                url: string;
                                cached: boolean;
                                /**
                                 * @description How an authenticated scan signed in; the credentials never come back.
                                 * @enum {unknown}
                                 */
                                auth_type: "basic" | "header" | null;
                                /** @description Extension: when the scan finished; with `cached: true` this is the reused result's age. Null for a scan queued or running. */
                                finished_at: string | null;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description The hourly scan limit of the plan, or the daily API limit. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"] | {
                            message: string;
                            /** @constant */
                            error: "hourly_scan_limit";
                            limit: number;
                            /** Format: date-time */
                            reset_at: string;
                        };
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description Temporal did not take the scan; retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's score alerts, newest first. */
        get: {
            parameters: {
                query?: {
                    /** @description Results per page, 1 to 50. */
                    limit?: number;
                    /** @description Page number, from 1. */
                    page?: number;
                    /** @description `open`: neither resolved nor dismissed; `resolved`; `unread`. */
                    status?: "open" | "resolved" | "unread";
                    severity?: "warning" | "critical";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of alerts. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": 42,
                         *           "type": "score_below_threshold",
                         *           "severity": "warning",
                         *           "title": "example",
                         *           "message": "example",
                         *           "is_read": true,
                         *           "is_dismissed": true,
                         *           "url": "https://www.example.com/",
                         *           "host": "www.example.com",
                         *           "scan_id": "01jz8q3m5kx7h2v9w4n6p0r1st",
                         *           "created_at": "2026-11-24T09:30:00Z",
                         *           "resolved_at": "2026-11-24T09:30:00Z",
                         *           "region": "eu-central",
                         *           "target_id": 42,
                         *           "flow": {
                         *             "id": "example",
                         *             "name": "Example"
                         *           },
                         *           "details": {
                         *             "score": "overall",
                         *             "value": 1.5,
                         *             "reference": 1.5,
                         *             "crossings": [
                         *               {
                         *                 "score": "overall",
                         *                 "value": 1.5,
                         *                 "threshold": 1.5,
                         *                 "severity": "warning"
                         *               }
                         *             ],
                         *             "budget": {
                         *               "metric": "lcp_ms",
                         *               "form_factor": "desktop",
                         *               "value": 1.5,
                         *               "budget": 1.5,
                         *               "unit": "ms",
                         *               "severity": "critical",
                         *               "step": {
                         *                 "index": 1,
                         *                 "name": "Example",
                         *                 "mode": "navigation"
                         *               }
                         *             },
                         *             "over_budget": [
                         *               {
                         *                 "metric": "lcp_ms",
                         *                 "form_factor": "desktop",
                         *                 "value": 1.5,
                         *                 "budget": 1.5,
                         *                 "unit": "ms",
                         *                 "severity": "critical",
                         *                 "step": {
                         *                   "index": 1,
                         *                   "name": "Example",
                         *                   "mode": "navigation"
                         *                 }
                         *               }
                         *             ],
                         *             "failed_step": {
                         *               "index": 1,
                         *               "step_type": "example",
                         *               "step": "example",
                         *               "code": "selector_not_found",
                         *               "message": "example"
                         *             },
                         *             "resolution": {
                         *               "kind": "recovered",
                         *               "value": 1.5
                         *             },
                         *             "regression": {
                         *               "metric": "lcp",
                         *               "form_factor": "desktop",
                         *               "baseline": 1.5,
                         *               "current": 1.5,
                         *               "shift": 1.5,
                         *               "p_value": 1.5,
                         *               "baseline_scans": 1,
                         *               "path": "example",
                         *               "confirmation_scan_id": "01jz8q3m5kx7h2v9w4n6p0r1st",
                         *               "also": [
                         *                 "example"
                         *               ]
                         *             }
                         *           },
                         *           "escalated_at": "2026-11-24T09:30:00Z",
                         *           "resolved_scan_id": "01jz8q3m5kx7h2v9w4n6p0r1st"
                         *         }
                         *       ],
                         *       "meta": {
                         *         "current_page": 3,
                         *         "per_page": 3,
                         *         "total": 3,
                         *         "last_page": 3
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: number;
                                /**
                                 * @description The spec shows `score_below_threshold` and leaves the set open. Extensions: `score_regression` and `metric_regression` (docs/verdicts.md), `metric_over_budget` (budgets of a target or a flow's steps), `flow_failed` (a run of a monitored flow failed; see `flow` and `details.failed_step`).
                                 * @enum {unknown}
                                 */
                                type: "score_below_threshold" | "score_regression" | "metric_over_budget" | "metric_regression" | "flow_failed";
                                /**
                                 * @description Only rises while the alert is unresolved (warning → critical).
                                 * @enum {unknown}
                                 */
                                severity: "warning" | "critical";
                                /** @description In the language of Accept-Language (English or German). */
                                title: string;
                                /** @description In the language of Accept-Language; a resolved alert adds how it resolved. */
                                message: string;
                                is_read: boolean;
                                is_dismissed: boolean;
                                /** Format: uri */
                                url: string;
                                host: string;
                                /** @description The scan the title and message describe: the one that raised the alert, or the one that escalated it. */
                                scan_id: string;
                                /** Format: date-time */
                                created_at: string;
                                resolved_at: string | null;
                                /** @description Extension: the target's scan region. */
                                region: string;
                                /** @description Extension: the monitored target (GET /domains); null once it is deleted, and null for a flow's alert (see `flow`). */
                                target_id: number | null;
                                /** @description Extension: the monitored flow (GET /flows/{id}) a flow's alert (metric_over_budget, flow_failed) is about, else null. Then `url` and `host` are the flow's first navigation's, and `scan_id` and `resolved_scan_id` are flow run ids (GET /flows/{id}/runs/{run_id}). */
                                flow: {
                                    id: string;
                                    /** @description The name when raised. */
                                    name: string;
                                } | null;
                                /** @description Extension: what the title and message are rendered from. */
                                details: {
                                    /**
                                     * @description `overall` or a category (flow_failed: `overall`, the flow as a whole).
                                     * @enum {unknown}
                                     */
                                    score: "overall" | "speed" | "images" | "caching" | "technical" | "wordpress";
                                    /** @description The score of the scan named by scan_id; flow_failed: how many runs in a row failed. */
                                    value: number;
                                    /** @description score_below_threshold: the threshold crossed; score_regression: the baseline (median of the previous scheduled scans); flow_failed: the failed runs in a row from which it is critical (2). */
                                    reference: number;
                                    /** @description score_below_threshold: every score below its warning threshold, worst first. */
                                    crossings: {
                                        /** @enum {unknown} */
                                        score: "overall" | "speed" | "images" | "caching" | "technical" | "wordpress";
                                        value: number;
                                        threshold: number;
                                        /** @enum {unknown} */
                                        severity: "warning" | "critical";
                                    }[];
                                    /** @description metric_over_budget: the worst broken budget, which `score` (the score for a score budget, `speed` for a page metric), `value` and `reference` (the budget) also describe; null for other types. */
                                    budget: {
                                        /** @enum {string} */
                                        metric: "lcp_ms" | "fcp_ms" | "tbt_ms" | "cls" | "ttfb_ms" | "inp_ms" | "overall" | "speed" | "images" | "caching" | "technical" | "wordpress" | "performance" | "accessibility" | "best_practices" | "seo";
                                        form_factor: ("desktop" | "mobile") | null;
                                        value: number;
                                        budget: number;
                                        /** @enum {string} */
                                        unit: "ms" | "unitless" | "points";
                                        /** @enum {string} */
                                        severity: "critical" | "warning";
                                        /** @description Extension, a flow's budget only: the step broken (its index in the flow's steps). */
                                        step?: {
                                            index: number;
                                            name: string;
                                            /** @enum {string} */
                                            mode: "navigation" | "timespan" | "snapshot";
                                        };
                                    } | null;
                                    /** @description metric_over_budget: every broken budget, worst first; empty for other types. */
                                    over_budget: {
                                        /** @enum {string} */
                                        metric: "lcp_ms" | "fcp_ms" | "tbt_ms" | "cls" | "ttfb_ms" | "inp_ms" | "overall" | "speed" | "images" | "caching" | "technical" | "wordpress" | "performance" | "accessibility" | "best_practices" | "seo";
                                        form_factor: ("desktop" | "mobile") | null;
                                        value: number;
                                        budget: number;
                                        /** @enum {string} */
                                        unit: "ms" | "unitless" | "points";
                                        /** @enum {string} */
                                        severity: "critical" | "warning";
                                        /** @description Extension, a flow's budget only: the step broken (its index in the flow's steps). */
                                        step?: {
                                            index: number;
                                            name: string;
                                            /** @enum {string} */
                                            mode: "navigation" | "timespan" | "snapshot";
                                        };
                                    }[];
                                    /** @description Extension, flow_failed: where the run named by scan_id stopped; null for other types. */
                                    failed_step: {
                                        /** @description The step's index in the flow's steps; null: the run failed outside any step (`run_error`). */
                                        index: number | null;
                                        step_type: string | null;
                                        /** @description The step in words: a measured step by its name, an action by what it does. */
                                        step: string;
                                        /** @enum {unknown} */
                                        code: "selector_not_found" | "navigation_failed" | "blocked_address" | "secret_origin" | "timeout" | "step_error" | "run_error" | "not_started";
                                        /** @description The runner's reason, in English. */
                                        message: string;
                                    } | null;
                                    resolution: {
                                        /** @enum {unknown} */
                                        kind: "recovered" | "settled";
                                        /** @description The score at resolution (flow_failed: 0, no failed run in a row). */
                                        value: number;
                                    } | null;
                                    /** @description score_regression and metric_regression: what the confirmed regression was judged on (docs/verdicts.md); null otherwise. */
                                    regression: {
                                        /** @enum {unknown} */
                                        metric: "lcp" | "fcp" | "si" | "tbt" | "cls" | "ttfb" | "score" | "requests" | "bytes";
                                        form_factor: ("desktop" | "mobile") | null;
                                        /** @description Median of the baseline window, in the metric’s unit. */
                                        baseline: number;
                                        /** @description Median of the scan that found it and its confirmation scan. */
                                        current: number;
                                        /** @description Hodges–Lehmann estimate of current − baseline. */
                                        shift: number;
                                        /** @description One-sided Mann–Whitney p-value. */
                                        p_value: number;
                                        baseline_scans: number;
                                        /** @description The page’s path (and query). */
                                        path: string;
                                        confirmation_scan_id: string;
                                        /** @description Other metrics confirmed with it. */
                                        also: string[];
                                    } | null;
                                };
                                /** @description Extension: when it went from warning to critical. */
                                escalated_at: string | null;
                                /** @description Extension: the scan that resolved it. */
                                resolved_scan_id: string | null;
                            }[];
                            meta?: {
                                current_page: number;
                                per_page: number;
                                total: number;
                                last_page: number;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts/mark-read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark alerts read: those in `ids`, or, without `ids`, every unread alert of the caller.
         * @description Ids of other users' alerts and unknown ids are ignored; `marked_read` counts only alerts that were unread and are now read. An empty `ids` marks nothing.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "ids": [
                     *         42
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description Alert ids (at most 1000). */
                        ids?: number[];
                    };
                };
            };
            responses: {
                /** @description How many alerts were marked. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "marked_read": 1
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                marked_read: number;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One alert. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The alert id. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The alert. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": 42,
                         *         "type": "score_below_threshold",
                         *         "severity": "warning",
                         *         "title": "example",
                         *         "message": "example",
                         *         "is_read": true,
                         *         "is_dismissed": true,
                         *         "url": "https://www.example.com/",
                         *         "host": "www.example.com",
                         *         "scan_id": "01jz8q3m5kx7h2v9w4n6p0r1st",
                         *         "created_at": "2026-11-24T09:30:00Z",
                         *         "resolved_at": "2026-11-24T09:30:00Z",
                         *         "region": "eu-central",
                         *         "target_id": 42,
                         *         "flow": {
                         *           "id": "example",
                         *           "name": "Example"
                         *         },
                         *         "details": {
                         *           "score": "overall",
                         *           "value": 1.5,
                         *           "reference": 1.5,
                         *           "crossings": [
                         *             {
                         *               "score": "overall",
                         *               "value": 1.5,
                         *               "threshold": 1.5,
                         *               "severity": "warning"
                         *             }
                         *           ],
                         *           "budget": {
                         *             "metric": "lcp_ms",
                         *             "form_factor": "desktop",
                         *             "value": 1.5,
                         *             "budget": 1.5,
                         *             "unit": "ms",
                         *             "severity": "critical",
                         *             "step": {
                         *               "index": 1,
                         *               "name": "Example",
                         *               "mode": "navigation"
                         *             }
                         *           },
                         *           "over_budget": [
                         *             {
                         *               "metric": "lcp_ms",
                         *               "form_factor": "desktop",
                         *               "value": 1.5,
                         *               "budget": 1.5,
                         *               "unit": "ms",
                         *               "severity": "critical",
                         *               "step": {
                         *                 "index": 1,
                         *                 "name": "Example",
                         *                 "mode": "navigation"
                         *               }
                         *             }
                         *           ],
                         *           "failed_step": {
                         *             "index": 1,
                         *             "step_type": "example",
                         *             "step": "example",
                         *             "code": "selector_not_found",
                         *             "message": "example"
                         *           },
                         *           "resolution": {
                         *             "kind": "recovered",
                         *             "value": 1.5
                         *           },
                         *           "regression": {
                         *             "metric": "lcp",
                         *             "form_factor": "desktop",
                         *             "baseline": 1.5,
                         *             "current": 1.5,
                         *             "shift": 1.5,
                         *             "p_value": 1.5,
                         *             "baseline_scans": 1,
                         *             "path": "example",
                         *             "confirmation_scan_id": "01jz8q3m5kx7h2v9w4n6p0r1st",
                         *             "also": [
                         *               "example"
                         *             ]
                         *           }
                         *         },
                         *         "escalated_at": "2026-11-24T09:30:00Z",
                         *         "resolved_scan_id": "01jz8q3m5kx7h2v9w4n6p0r1st"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: number;
                                /**
                                 * @description The spec shows `score_below_threshold` and leaves the set open. Extensions: `score_regression` and `metric_regression` (docs/verdicts.md), `metric_over_budget` (budgets of a target or a flow's steps), `flow_failed` (a run of a monitored flow failed; see `flow` and `details.failed_step`).
                                 * @enum {unknown}
                                 */
                                type: "score_below_threshold" | "score_regression" | "metric_over_budget" | "metric_regression" | "flow_failed";
                                /**
                                 * @description Only rises while the alert is unresolved (warning → critical).
                                 * @enum {unknown}
                                 */
                                severity: "warning" | "critical";
                                /** @description In the language of Accept-Language (English or German). */
                                title: string;
                                /** @description In the language of Accept-Language; a resolved alert adds how it resolved. */
                                message: string;
                                is_read: boolean;
                                is_dismissed: boolean;
                                /** Format: uri */
                                url: string;
                                host: string;
                                /** @description The scan the title and message describe: the one that raised the alert, or the one that escalated it. */
                                scan_id: string;
                                /** Format: date-time */
                                created_at: string;
                                resolved_at: string | null;
                                /** @description Extension: the target's scan region. */
                                region: string;
                                /** @description Extension: the monitored target (GET /domains); null once it is deleted, and null for a flow's alert (see `flow`). */
                                target_id: number | null;
                                /** @description Extension: the monitored flow (GET /flows/{id}) a flow's alert (metric_over_budget, flow_failed) is about, else null. Then `url` and `host` are the flow's first navigation's, and `scan_id` and `resolved_scan_id` are flow run ids (GET /flows/{id}/runs/{run_id}). */
                                flow: {
                                    id: string;
                                    /** @description The name when raised. */
                                    name: string;
                                } | null;
                                /** @description Extension: what the title and message are rendered from. */
                                details: {
                                    /**
                                     * @description `overall` or a category (flow_failed: `overall`, the flow as a whole).
                                     * @enum {unknown}
                                     */
                                    score: "overall" | "speed" | "images" | "caching" | "technical" | "wordpress";
                                    /** @description The score of the scan named by scan_id; flow_failed: how many runs in a row failed. */
                                    value: number;
                                    /** @description score_below_threshold: the threshold crossed; score_regression: the baseline (median of the previous scheduled scans); flow_failed: the failed runs in a row from which it is critical (2). */
                                    reference: number;
                                    /** @description score_below_threshold: every score below its warning threshold, worst first. */
                                    crossings: {
                                        /** @enum {unknown} */
                                        score: "overall" | "speed" | "images" | "caching" | "technical" | "wordpress";
                                        value: number;
                                        threshold: number;
                                        /** @enum {unknown} */
                                        severity: "warning" | "critical";
                                    }[];
                                    /** @description metric_over_budget: the worst broken budget, which `score` (the score for a score budget, `speed` for a page metric), `value` and `reference` (the budget) also describe; null for other types. */
                                    budget: {
                                        /** @enum {string} */
                                        metric: "lcp_ms" | "fcp_ms" | "tbt_ms" | "cls" | "ttfb_ms" | "inp_ms" | "overall" | "speed" | "images" | "caching" | "technical" | "wordpress" | "performance" | "accessibility" | "best_practices" | "seo";
                                        form_factor: ("desktop" | "mobile") | null;
                                        value: number;
                                        budget: number;
                                        /** @enum {string} */
                                        unit: "ms" | "unitless" | "points";
                                        /** @enum {string} */
                                        severity: "critical" | "warning";
                                        /** @description Extension, a flow's budget only: the step broken (its index in the flow's steps). */
                                        step?: {
                                            index: number;
                                            name: string;
                                            /** @enum {string} */
                                            mode: "navigation" | "timespan" | "snapshot";
                                        };
                                    } | null;
                                    /** @description metric_over_budget: every broken budget, worst first; empty for other types. */
                                    over_budget: {
                                        /** @enum {string} */
                                        metric: "lcp_ms" | "fcp_ms" | "tbt_ms" | "cls" | "ttfb_ms" | "inp_ms" | "overall" | "speed" | "images" | "caching" | "technical" | "wordpress" | "performance" | "accessibility" | "best_practices" | "seo";
                                        form_factor: ("desktop" | "mobile") | null;
                                        value: number;
                                        budget: number;
                                        /** @enum {string} */
                                        unit: "ms" | "unitless" | "points";
                                        /** @enum {string} */
                                        severity: "critical" | "warning";
                                        /** @description Extension, a flow's budget only: the step broken (its index in the flow's steps). */
                                        step?: {
                                            index: number;
                                            name: string;
                                            /** @enum {string} */
                                            mode: "navigation" | "timespan" | "snapshot";
                                        };
                                    }[];
                                    /** @description Extension, flow_failed: where the run named by scan_id stopped; null for other types. */
                                    failed_step: {
                                        /** @description The step's index in the flow's steps; null: the run failed outside any step (`run_error`). */
                                        index: number | null;
                                        step_type: string | null;
                                        /** @description The step in words: a measured step by its name, an action by what it does. */
                                        step: string;
                                        /** @enum {unknown} */
                                        code: "selector_not_found" | "navigation_failed" | "blocked_address" | "secret_origin" | "timeout" | "step_error" | "run_error" | "not_started";
                                        /** @description The runner's reason, in English. */
                                        message: string;
                                    } | null;
                                    resolution: {
                                        /** @enum {unknown} */
                                        kind: "recovered" | "settled";
                                        /** @description The score at resolution (flow_failed: 0, no failed run in a row). */
                                        value: number;
                                    } | null;
                                    /** @description score_regression and metric_regression: what the confirmed regression was judged on (docs/verdicts.md); null otherwise. */
                                    regression: {
                                        /** @enum {unknown} */
                                        metric: "lcp" | "fcp" | "si" | "tbt" | "cls" | "ttfb" | "score" | "requests" | "bytes";
                                        form_factor: ("desktop" | "mobile") | null;
                                        /** @description Median of the baseline window, in the metric’s unit. */
                                        baseline: number;
                                        /** @description Median of the scan that found it and its confirmation scan. */
                                        current: number;
                                        /** @description Hodges–Lehmann estimate of current − baseline. */
                                        shift: number;
                                        /** @description One-sided Mann–Whitney p-value. */
                                        p_value: number;
                                        baseline_scans: number;
                                        /** @description The page’s path (and query). */
                                        path: string;
                                        confirmation_scan_id: string;
                                        /** @description Other metrics confirmed with it. */
                                        also: string[];
                                    } | null;
                                };
                                /** @description Extension: when it went from warning to critical. */
                                escalated_at: string | null;
                                /** @description Extension: the scan that resolved it. */
                                resolved_scan_id: string | null;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts/{id}/dismiss": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Dismiss an alert: it leaves the `open` list, is marked read and sends no more e-mail; it still resolves when the score recovers.
         * @description While it is unresolved it stays the one alert of its type for its target, so no new one is raised. Dismissing twice is harmless.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The alert id. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /** @example {} */
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description The dismissed alert. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": 42,
                         *         "type": "score_below_threshold",
                         *         "severity": "warning",
                         *         "title": "example",
                         *         "message": "example",
                         *         "is_read": true,
                         *         "is_dismissed": true,
                         *         "url": "https://www.example.com/",
                         *         "host": "www.example.com",
                         *         "scan_id": "01jz8q3m5kx7h2v9w4n6p0r1st",
                         *         "created_at": "2026-11-24T09:30:00Z",
                         *         "resolved_at": "2026-11-24T09:30:00Z",
                         *         "region": "eu-central",
                         *         "target_id": 42,
                         *         "flow": {
                         *           "id": "example",
                         *           "name": "Example"
                         *         },
                         *         "details": {
                         *           "score": "overall",
                         *           "value": 1.5,
                         *           "reference": 1.5,
                         *           "crossings": [
                         *             {
                         *               "score": "overall",
                         *               "value": 1.5,
                         *               "threshold": 1.5,
                         *               "severity": "warning"
                         *             }
                         *           ],
                         *           "budget": {
                         *             "metric": "lcp_ms",
                         *             "form_factor": "desktop",
                         *             "value": 1.5,
                         *             "budget": 1.5,
                         *             "unit": "ms",
                         *             "severity": "critical",
                         *             "step": {
                         *               "index": 1,
                         *               "name": "Example",
                         *               "mode": "navigation"
                         *             }
                         *           },
                         *           "over_budget": [
                         *             {
                         *               "metric": "lcp_ms",
                         *               "form_factor": "desktop",
                         *               "value": 1.5,
                         *               "budget": 1.5,
                         *               "unit": "ms",
                         *               "severity": "critical",
                         *               "step": {
                         *                 "index": 1,
                         *                 "name": "Example",
                         *                 "mode": "navigation"
                         *               }
                         *             }
                         *           ],
                         *           "failed_step": {
                         *             "index": 1,
                         *             "step_type": "example",
                         *             "step": "example",
                         *             "code": "selector_not_found",
                         *             "message": "example"
                         *           },
                         *           "resolution": {
                         *             "kind": "recovered",
                         *             "value": 1.5
                         *           },
                         *           "regression": {
                         *             "metric": "lcp",
                         *             "form_factor": "desktop",
                         *             "baseline": 1.5,
                         *             "current": 1.5,
                         *             "shift": 1.5,
                         *             "p_value": 1.5,
                         *             "baseline_scans": 1,
                         *             "path": "example",
                         *             "confirmation_scan_id": "01jz8q3m5kx7h2v9w4n6p0r1st",
                         *             "also": [
                         *               "example"
                         *             ]
                         *           }
                         *         },
                         *         "escalated_at": "2026-11-24T09:30:00Z",
                         *         "resolved_scan_id": "01jz8q3m5kx7h2v9w4n6p0r1st"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: number;
                                /**
                                 * @description The spec shows `score_below_threshold` and leaves the set open. Extensions: `score_regression` and `metric_regression` (docs/verdicts.md), `metric_over_budget` (budgets of a target or a flow's steps), `flow_failed` (a run of a monitored flow failed; see `flow` and `details.failed_step`).
                                 * @enum {unknown}
                                 */
                                type: "score_below_threshold" | "score_regression" | "metric_over_budget" | "metric_regression" | "flow_failed";
                                /**
                                 * @description Only rises while the alert is unresolved (warning → critical).
                                 * @enum {unknown}
                                 */
                                severity: "warning" | "critical";
                                /** @description In the language of Accept-Language (English or German). */
                                title: string;
                                /** @description In the language of Accept-Language; a resolved alert adds how it resolved. */
                                message: string;
                                is_read: boolean;
                                is_dismissed: boolean;
                                /** Format: uri */
                                url: string;
                                host: string;
                                /** @description The scan the title and message describe: the one that raised the alert, or the one that escalated it. */
                                scan_id: string;
                                /** Format: date-time */
                                created_at: string;
                                resolved_at: string | null;
                                /** @description Extension: the target's scan region. */
                                region: string;
                                /** @description Extension: the monitored target (GET /domains); null once it is deleted, and null for a flow's alert (see `flow`). */
                                target_id: number | null;
                                /** @description Extension: the monitored flow (GET /flows/{id}) a flow's alert (metric_over_budget, flow_failed) is about, else null. Then `url` and `host` are the flow's first navigation's, and `scan_id` and `resolved_scan_id` are flow run ids (GET /flows/{id}/runs/{run_id}). */
                                flow: {
                                    id: string;
                                    /** @description The name when raised. */
                                    name: string;
                                } | null;
                                /** @description Extension: what the title and message are rendered from. */
                                details: {
                                    /**
                                     * @description `overall` or a category (flow_failed: `overall`, the flow as a whole).
                                     * @enum {unknown}
                                     */
                                    score: "overall" | "speed" | "images" | "caching" | "technical" | "wordpress";
                                    /** @description The score of the scan named by scan_id; flow_failed: how many runs in a row failed. */
                                    value: number;
                                    /** @description score_below_threshold: the threshold crossed; score_regression: the baseline (median of the previous scheduled scans); flow_failed: the failed runs in a row from which it is critical (2). */
                                    reference: number;
                                    /** @description score_below_threshold: every score below its warning threshold, worst first. */
                                    crossings: {
                                        /** @enum {unknown} */
                                        score: "overall" | "speed" | "images" | "caching" | "technical" | "wordpress";
                                        value: number;
                                        threshold: number;
                                        /** @enum {unknown} */
                                        severity: "warning" | "critical";
                                    }[];
                                    /** @description metric_over_budget: the worst broken budget, which `score` (the score for a score budget, `speed` for a page metric), `value` and `reference` (the budget) also describe; null for other types. */
                                    budget: {
                                        /** @enum {string} */
                                        metric: "lcp_ms" | "fcp_ms" | "tbt_ms" | "cls" | "ttfb_ms" | "inp_ms" | "overall" | "speed" | "images" | "caching" | "technical" | "wordpress" | "performance" | "accessibility" | "best_practices" | "seo";
                                        form_factor: ("desktop" | "mobile") | null;
                                        value: number;
                                        budget: number;
                                        /** @enum {string} */
                                        unit: "ms" | "unitless" | "points";
                                        /** @enum {string} */
                                        severity: "critical" | "warning";
                                        /** @description Extension, a flow's budget only: the step broken (its index in the flow's steps). */
                                        step?: {
                                            index: number;
                                            name: string;
                                            /** @enum {string} */
                                            mode: "navigation" | "timespan" | "snapshot";
                                        };
                                    } | null;
                                    /** @description metric_over_budget: every broken budget, worst first; empty for other types. */
                                    over_budget: {
                                        /** @enum {string} */
                                        metric: "lcp_ms" | "fcp_ms" | "tbt_ms" | "cls" | "ttfb_ms" | "inp_ms" | "overall" | "speed" | "images" | "caching" | "technical" | "wordpress" | "performance" | "accessibility" | "best_practices" | "seo";
                                        form_factor: ("desktop" | "mobile") | null;
                                        value: number;
                                        budget: number;
                                        /** @enum {string} */
                                        unit: "ms" | "unitless" | "points";
                                        /** @enum {string} */
                                        severity: "critical" | "warning";
                                        /** @description Extension, a flow's budget only: the step broken (its index in the flow's steps). */
                                        step?: {
                                            index: number;
                                            name: string;
                                            /** @enum {string} */
                                            mode: "navigation" | "timespan" | "snapshot";
                                        };
                                    }[];
                                    /** @description Extension, flow_failed: where the run named by scan_id stopped; null for other types. */
                                    failed_step: {
                                        /** @description The step's index in the flow's steps; null: the run failed outside any step (`run_error`). */
                                        index: number | null;
                                        step_type: string | null;
                                        /** @description The step in words: a measured step by its name, an action by what it does. */
                                        step: string;
                                        /** @enum {unknown} */
                                        code: "selector_not_found" | "navigation_failed" | "blocked_address" | "secret_origin" | "timeout" | "step_error" | "run_error" | "not_started";
                                        /** @description The runner's reason, in English. */
                                        message: string;
                                    } | null;
                                    resolution: {
                                        /** @enum {unknown} */
                                        kind: "recovered" | "settled";
                                        /** @description The score at resolution (flow_failed: 0, no failed run in a row). */
                                        value: number;
                                    } | null;
                                    /** @description score_regression and metric_regression: what the confirmed regression was judged on (docs/verdicts.md); null otherwise. */
                                    regression: {
                                        /** @enum {unknown} */
                                        metric: "lcp" | "fcp" | "si" | "tbt" | "cls" | "ttfb" | "score" | "requests" | "bytes";
                                        form_factor: ("desktop" | "mobile") | null;
                                        /** @description Median of the baseline window, in the metric’s unit. */
                                        baseline: number;
                                        /** @description Median of the scan that found it and its confirmation scan. */
                                        current: number;
                                        /** @description Hodges–Lehmann estimate of current − baseline. */
                                        shift: number;
                                        /** @description One-sided Mann–Whitney p-value. */
                                        p_value: number;
                                        baseline_scans: number;
                                        /** @description The page’s path (and query). */
                                        path: string;
                                        confirmation_scan_id: string;
                                        /** @description Other metrics confirmed with it. */
                                        also: string[];
                                    } | null;
                                };
                                /** @description Extension: when it went from warning to critical. */
                                escalated_at: string | null;
                                /** @description Extension: the scan that resolved it. */
                                resolved_scan_id: string | null;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rum/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's live-data sites, oldest first. */
        get: {
            parameters: {
                query?: {
                    /** @description Results per page, 1 to 50. */
                    limit?: number;
                    /** @description Page number, from 1. */
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of sites. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": 42,
                         *           "domain": "www.example.com",
                         *           "active": false,
                         *           "embed_snippet": "example",
                         *           "pageviews_this_month": 3,
                         *           "monthly_limit": 3,
                         *           "created_at": "2026-11-24T09:30:00Z"
                         *         }
                         *       ],
                         *       "meta": {
                         *         "current_page": 3,
                         *         "per_page": 3,
                         *         "total": 3,
                         *         "last_page": 3
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: number;
                                /** @description Host name (lower-case, IDN as punycode); beacons are accepted from it and its subdomains. */
                                domain: string;
                                /** @description False: the ingest service refuses this site's beacons. */
                                active: boolean;
                                /** @description The script tag to paste into every page: `src` is the versioned collector script, `data-site-id` the site's public id, `async`. */
                                embed_snippet: string;
                                /** @description Page views measured this UTC month, each counted 100 / sample_rate times. Null while the live-data store is unreachable (the rest of the site is still returned). */
                                pageviews_this_month: number | null;
                                /** @description Page views per site and UTC month the plan includes; past it the ingest keeps 1 page view in 10, each counted 10 times (the others: `rejected_this_month.over_limit`). */
                                monthly_limit: number;
                                /** Format: date-time */
                                created_at: string;
                            }[];
                            meta?: {
                                current_page: number;
                                per_page: number;
                                total: number;
                                last_page: number;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a live-data site for a domain; paste its `embed_snippet` into the pages.
         * @description The domain is reduced to its host name (a URL is accepted; lower-cased, IDN as punycode). 403 when the plan keeps no more sites (`required_plan` names the plan that keeps more); 422 for an IP address, `localhost`, an invalid name, or a domain that already has a site.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "domain": "www.example.com",
                     *       "sample_rate": 100
                     *     }
                     */
                    "application/json": {
                        /** @description Host name, or a URL whose host is taken. */
                        domain: string;
                        /**
                         * @description Percentage of page views the script reports.
                         * @default 100
                         */
                        sample_rate?: number;
                    };
                };
            };
            responses: {
                /** @description The new site. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": 42,
                         *         "domain": "www.example.com",
                         *         "active": false,
                         *         "embed_snippet": "example",
                         *         "pageviews_this_month": 3,
                         *         "monthly_limit": 3,
                         *         "created_at": "2026-11-24T09:30:00Z",
                         *         "public_id": "example",
                         *         "sample_rate": 1,
                         *         "alert_count": 3,
                         *         "rejected_this_month": {},
                         *         "updated_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: number;
                                /** @description Host name (lower-case, IDN as punycode); beacons are accepted from it and its subdomains. */
                                domain: string;
                                /** @description False: the ingest service refuses this site's beacons. */
                                active: boolean;
                                /** @description The script tag to paste into every page: `src` is the versioned collector script, `data-site-id` the site's public id, `async`. */
                                embed_snippet: string;
                                /** @description Page views measured this UTC month, each counted 100 / sample_rate times. Null while the live-data store is unreachable (the rest of the site is still returned). */
                                pageviews_this_month: number | null;
                                /** @description Page views per site and UTC month the plan includes; past it the ingest keeps 1 page view in 10, each counted 10 times (the others: `rejected_this_month.over_limit`). */
                                monthly_limit: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description Extension: the `data-site-id` of the snippet. */
                                public_id: string;
                                /** @description Extension: percentage of page views the script reports. */
                                sample_rate: number;
                                /** @description Extension: live-data alert configurations of the site (GET /rum/sites/{id}/alerts). */
                                alert_count: number;
                                /** @description Extension: beacons the ingest service refused this UTC month, by reason (`monthly_limit`, `origin`, `bot`, ...); null while the live-data store is unreachable. */
                                rejected_this_month: {
                                    [key: string]: number;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description Extension.
                                 */
                                updated_at: string;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rum/sites/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One live-data site: the list fields, then `public_id`, `sample_rate`, `alert_count`, `rejected_this_month`, `updated_at` (extensions). */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The site id from GET /rum/sites. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The site. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": 42,
                         *         "domain": "www.example.com",
                         *         "active": false,
                         *         "embed_snippet": "example",
                         *         "pageviews_this_month": 3,
                         *         "monthly_limit": 3,
                         *         "created_at": "2026-11-24T09:30:00Z",
                         *         "public_id": "example",
                         *         "sample_rate": 1,
                         *         "alert_count": 3,
                         *         "rejected_this_month": {},
                         *         "updated_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: number;
                                /** @description Host name (lower-case, IDN as punycode); beacons are accepted from it and its subdomains. */
                                domain: string;
                                /** @description False: the ingest service refuses this site's beacons. */
                                active: boolean;
                                /** @description The script tag to paste into every page: `src` is the versioned collector script, `data-site-id` the site's public id, `async`. */
                                embed_snippet: string;
                                /** @description Page views measured this UTC month, each counted 100 / sample_rate times. Null while the live-data store is unreachable (the rest of the site is still returned). */
                                pageviews_this_month: number | null;
                                /** @description Page views per site and UTC month the plan includes; past it the ingest keeps 1 page view in 10, each counted 10 times (the others: `rejected_this_month.over_limit`). */
                                monthly_limit: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description Extension: the `data-site-id` of the snippet. */
                                public_id: string;
                                /** @description Extension: percentage of page views the script reports. */
                                sample_rate: number;
                                /** @description Extension: live-data alert configurations of the site (GET /rum/sites/{id}/alerts). */
                                alert_count: number;
                                /** @description Extension: beacons the ingest service refused this UTC month, by reason (`monthly_limit`, `origin`, `bot`, ...); null while the live-data store is unreachable. */
                                rejected_this_month: {
                                    [key: string]: number;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description Extension.
                                 */
                                updated_at: string;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Remove the site and its alert configurations; its beacons are refused from then on. */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The site id from GET /rum/sites. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Turn collection off or on (`active`) or change the sample rate. */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The site id from GET /rum/sites. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "active": false,
                     *       "sample_rate": 1
                     *     }
                     */
                    "application/json": {
                        /** @description False: beacons of the site are refused (reason `inactive`). */
                        active?: boolean;
                        /** @description Percentage of page views the script reports. */
                        sample_rate?: number;
                    };
                };
            };
            responses: {
                /** @description The site. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": 42,
                         *         "domain": "www.example.com",
                         *         "active": false,
                         *         "embed_snippet": "example",
                         *         "pageviews_this_month": 3,
                         *         "monthly_limit": 3,
                         *         "created_at": "2026-11-24T09:30:00Z",
                         *         "public_id": "example",
                         *         "sample_rate": 1,
                         *         "alert_count": 3,
                         *         "rejected_this_month": {},
                         *         "updated_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: number;
                                /** @description Host name (lower-case, IDN as punycode); beacons are accepted from it and its subdomains. */
                                domain: string;
                                /** @description False: the ingest service refuses this site's beacons. */
                                active: boolean;
                                /** @description The script tag to paste into every page: `src` is the versioned collector script, `data-site-id` the site's public id, `async`. */
                                embed_snippet: string;
                                /** @description Page views measured this UTC month, each counted 100 / sample_rate times. Null while the live-data store is unreachable (the rest of the site is still returned). */
                                pageviews_this_month: number | null;
                                /** @description Page views per site and UTC month the plan includes; past it the ingest keeps 1 page view in 10, each counted 10 times (the others: `rejected_this_month.over_limit`). */
                                monthly_limit: number;
                                /** Format: date-time */
                                created_at: string;
                                /** @description Extension: the `data-site-id` of the snippet. */
                                public_id: string;
                                /** @description Extension: percentage of page views the script reports. */
                                sample_rate: number;
                                /** @description Extension: live-data alert configurations of the site (GET /rum/sites/{id}/alerts). */
                                alert_count: number;
                                /** @description Extension: beacons the ingest service refused this UTC month, by reason (`monthly_limit`, `origin`, `bot`, ...); null while the live-data store is unreachable. */
                                rejected_this_month: {
                                    [key: string]: number;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description Extension.
                                 */
                                updated_at: string;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/rum/sites/{id}/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** p75 per metric with its rating and sample count, and the Core Web Vitals verdict, over a rolling period. */
        get: {
            parameters: {
                query?: {
                    /** @description 24h: the last 24 hours up to now. 7d, 30d: the 7 or 30 whole UTC days before today, and today up to now. */
                    period?: "24h" | "7d" | "30d";
                    /** @description Only page views from this kind of device. */
                    device?: "all" | "desktop" | "mobile" | "tablet";
                };
                header?: never;
                path: {
                    /** @description The site id from GET /rum/sites. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The summary. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "domain": "www.example.com",
                         *         "period": "example",
                         *         "device": "example",
                         *         "cwv_pass": false,
                         *         "cwv_insufficient_data": false,
                         *         "metrics": {
                         *           "LCP": {
                         *             "p75": 1.5,
                         *             "rating": "good",
                         *             "samples": 1
                         *           },
                         *           "CLS": {
                         *             "p75": 1.5,
                         *             "rating": "good",
                         *             "samples": 1
                         *           },
                         *           "INP": {
                         *             "p75": 1.5,
                         *             "rating": "good",
                         *             "samples": 1
                         *           },
                         *           "FCP": {
                         *             "p75": 1.5,
                         *             "rating": "good",
                         *             "samples": 1
                         *           },
                         *           "TTFB": {
                         *             "p75": 1.5,
                         *             "rating": "good",
                         *             "samples": 1
                         *           }
                         *         },
                         *         "navigation": [
                         *           {
                         *             "type": "navigate",
                         *             "page_views": 3
                         *           }
                         *         ]
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                domain: string;
                                period: string;
                                device: string;
                                /** @description True when LCP, CLS and INP are all good with at least 20 samples each; false when all have 20 and one is not good; null otherwise. */
                                cwv_pass: boolean | null;
                                cwv_insufficient_data: boolean;
                                metrics: {
                                    LCP: {
                                        /** @description 75th percentile (exact: the value at 0-based rank floor(0.75 × n) of the sorted samples); null without samples. */
                                        p75: number | null;
                                        /** @description Google's rating of the p75; null without samples. */
                                        rating: ("good" | "needs-improvement" | "poor") | null;
                                        /** @description Measurements (page views reporting the metric, resends counted once). */
                                        samples: number;
                                    };
                                    CLS: {
                                        /** @description 75th percentile (exact: the value at 0-based rank floor(0.75 × n) of the sorted samples); null without samples. */
                                        p75: number | null;
                                        /** @description Google's rating of the p75; null without samples. */
                                        rating: ("good" | "needs-improvement" | "poor") | null;
                                        /** @description Measurements (page views reporting the metric, resends counted once). */
                                        samples: number;
                                    };
                                    INP: {
                                        /** @description 75th percentile (exact: the value at 0-based rank floor(0.75 × n) of the sorted samples); null without samples. */
                                        p75: number | null;
                                        /** @description Google's rating of the p75; null without samples. */
                                        rating: ("good" | "needs-improvement" | "poor") | null;
                                        /** @description Measurements (page views reporting the metric, resends counted once). */
                                        samples: number;
                                    };
                                    FCP: {
                                        /** @description 75th percentile (exact: the value at 0-based rank floor(0.75 × n) of the sorted samples); null without samples. */
                                        p75: number | null;
                                        /** @description Google's rating of the p75; null without samples. */
                                        rating: ("good" | "needs-improvement" | "poor") | null;
                                        /** @description Measurements (page views reporting the metric, resends counted once). */
                                        samples: number;
                                    };
                                    TTFB: {
                                        /** @description 75th percentile (exact: the value at 0-based rank floor(0.75 × n) of the sorted samples); null without samples. */
                                        p75: number | null;
                                        /** @description Google's rating of the p75; null without samples. */
                                        rating: ("good" | "needs-improvement" | "poor") | null;
                                        /** @description Measurements (page views reporting the metric, resends counted once). */
                                        samples: number;
                                    };
                                };
                                /** @description Extension: page views measured in the period by navigation type, most first (not scaled by the sample rate). A single-page app's route change that the browser reports as a soft navigation is a page view of its own, `soft-navigation`. */
                                navigation: {
                                    /** @enum {unknown} */
                                    type: "navigate" | "reload" | "back-forward" | "back-forward-cache" | "prerender" | "restore" | "soft-navigation";
                                    page_views: number;
                                }[];
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description The live-data store (ClickHouse) is unreachable. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rum/sites/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Daily p75 and p50 of one metric: one item per UTC day with data, newest first.
         * @description `days` counts calendar days (UTC) including today.
         */
        get: {
            parameters: {
                query: {
                    metric: "LCP" | "CLS" | "INP" | "FCP" | "TTFB";
                    /** @description Calendar days (UTC) up to and including today. */
                    days?: 7 | 30 | 90;
                    /** @description Only page views from this kind of device. */
                    device?: "all" | "desktop" | "mobile" | "tablet";
                };
                header?: never;
                path: {
                    /** @description The site id from GET /rum/sites. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description History items. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "date": "2026-11-24",
                         *           "p75": 1.5,
                         *           "p50": 1.5,
                         *           "samples": 1
                         *         }
                         *       ],
                         *       "meta": {
                         *         "metric": "LCP",
                         *         "days": 1,
                         *         "device": "example"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /**
                                 * Format: date
                                 * @description UTC calendar day.
                                 */
                                date: string;
                                /** @description Milliseconds for LCP, INP, FCP and TTFB (whole numbers); unitless for CLS (four decimals). */
                                p75: number;
                                /** @description Milliseconds for LCP, INP, FCP and TTFB (whole numbers); unitless for CLS (four decimals). */
                                p50: number;
                                samples: number;
                            }[];
                            meta?: {
                                /** @enum {unknown} */
                                metric: "LCP" | "CLS" | "INP" | "FCP" | "TTFB";
                                days: number;
                                device: string;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description The live-data store (ClickHouse) is unreachable. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rum/sites/{id}/pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The slowest paths by p75 of one metric, with their sample counts (ties: more samples first, then path). */
        get: {
            parameters: {
                query?: {
                    metric?: "LCP" | "FCP" | "TTFB";
                    /** @description 24h: the last 24 hours up to now. 7d: the 7 whole UTC days before today, and today up to now. */
                    period?: "24h" | "7d";
                    limit?: number;
                    /** @description Extension: only page views from this kind of device. */
                    device?: "all" | "desktop" | "mobile" | "tablet";
                };
                header?: never;
                path: {
                    /** @description The site id from GET /rum/sites. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Page items, slowest first. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "path": "example",
                         *           "p75": 1.5,
                         *           "samples": 1,
                         *           "attribution": {
                         *             "target": "example",
                         *             "url": "https://www.example.com/"
                         *           }
                         *         }
                         *       ],
                         *       "meta": {
                         *         "metric": "example",
                         *         "period": "example",
                         *         "device": "example"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                path: string;
                                /** @description Milliseconds for LCP, INP, FCP and TTFB (whole numbers); unitless for CLS (four decimals). */
                                p75: number;
                                samples: number;
                                /** @description Extension, present when the page's values carry one: the most frequent LCP element (CSS selector) and resource URL (origin and path). */
                                attribution?: {
                                    target: string | null;
                                    url: string | null;
                                };
                            }[];
                            meta?: {
                                metric: string;
                                period: string;
                                /** @description Extension. */
                                device: string;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description The live-data store (ClickHouse) is unreachable. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rum/sites/{id}/inp-culprits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The scripts behind slow INP interactions (above 200 ms), grouped into culprits, most slow interactions first.
         * @description From the INP interactions' long-animation-frame scripts (current collectors, Chromium). A first-party script (the site's domain or a subdomain) is its own culprit; third-party scripts group by entity (third-party-web, as Lighthouse), or by host when it names none; scripts without a URL are the culprit `inline`. `share`: the culprit's slow interactions over all slow interactions of the period; `inp_p75` and `script_time_p75` are exact p75s over the culprit's slow interactions.
         */
        get: {
            parameters: {
                query?: {
                    /** @description 24h: the last 24 hours up to now. 7d: the 7 whole UTC days before today, and today up to now. */
                    period?: "24h" | "7d";
                    /** @description Only page views from this kind of device. */
                    device?: "all" | "desktop" | "mobile" | "tablet";
                    /** @description Only this page (the path as the collector sends it, location.pathname). */
                    path?: string;
                };
                header?: never;
                path: {
                    /** @description The site id from GET /rum/sites. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Culprits of slow interactions. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "slow_threshold_ms": 1200,
                         *         "interactions": 1,
                         *         "slow_interactions": 1,
                         *         "slow_with_scripts": 1,
                         *         "culprits": [
                         *           {
                         *             "culprit": "example",
                         *             "kind": "first-party",
                         *             "entity": "example",
                         *             "anchor": "example",
                         *             "scripts": [
                         *               "example"
                         *             ],
                         *             "function": "example",
                         *             "invoker": "example",
                         *             "slow_interactions": 1,
                         *             "share": 1,
                         *             "inp_p75": 1,
                         *             "script_time_p75": 1
                         *           }
                         *         ]
                         *       },
                         *       "meta": {
                         *         "period": "example",
                         *         "device": "example",
                         *         "path": "example"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description An interaction is slow above this INP value. */
                                slow_threshold_ms: number;
                                /** @description INP measurements (resends counted once). */
                                interactions: number;
                                slow_interactions: number;
                                /** @description Slow interactions that carry long-animation-frame scripts (Chromium, current collectors). */
                                slow_with_scripts: number;
                                /** @description Most slow interactions first (then INP p75), at most 20. */
                                culprits: {
                                    /** @description First party: the script's URL (origin and path); third party: the entity's name (third-party-web), or the host when it names none; inline: ''. */
                                    culprit: string;
                                    /**
                                     * @description `first-party`: a script on the site's domain or a subdomain; `third-party`: grouped by entity or host; `inline`: scripts without a URL (inline handlers, or not attributed by the browser).
                                     * @enum {unknown}
                                     */
                                    kind: "first-party" | "third-party" | "inline";
                                    /** @description third-party-web's entity name, or null. */
                                    entity: string | null;
                                    /** @description The culprit's fragment id on the web dashboard (`culprit-<slug>`), stable across periods. */
                                    anchor: string;
                                    /** @description Script URLs seen (sorted, at most 10). */
                                    scripts: string[];
                                    /** @description The most frequent function name of its longest script ('' when none). */
                                    function: string;
                                    /** @description The invoker type going with `function` (`event-listener`, ...). */
                                    invoker: string;
                                    /** @description Slow interactions whose scripts include it. */
                                    slow_interactions: number;
                                    /** @description slow_interactions / all slow interactions. */
                                    share: number;
                                    /** @description p75 of those interactions' INP (ms). */
                                    inp_p75: number;
                                    /** @description p75 of its scripts' time inside those interactions (ms). */
                                    script_time_p75: number;
                                }[];
                            };
                            meta?: {
                                period: string;
                                device: string;
                                path: string | null;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description The live-data store (ClickHouse) is unreachable. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rum/sites/{id}/lcp-phases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** LCP p75 and the p75 of each of its four phases, for the whole site and its slowest pages by LCP. */
        get: {
            parameters: {
                query?: {
                    /** @description 24h: the last 24 hours up to now. 7d: the 7 whole UTC days before today, and today up to now. */
                    period?: "24h" | "7d";
                    /** @description Only page views from this kind of device. */
                    device?: "all" | "desktop" | "mobile" | "tablet";
                    limit?: number;
                };
                header?: never;
                path: {
                    /** @description The site id from GET /rum/sites. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description LCP phases. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "site": {
                         *           "p75": 1,
                         *           "samples": 1,
                         *           "attribution": {
                         *             "target": "example",
                         *             "url": "https://www.example.com/"
                         *           },
                         *           "phase_samples": 1,
                         *           "phases": {
                         *             "ttfb": 1,
                         *             "delay": 1,
                         *             "load": 1,
                         *             "render": 1
                         *           }
                         *         },
                         *         "pages": [
                         *           {
                         *             "path": "example",
                         *             "anchor": "example",
                         *             "p75": 1,
                         *             "samples": 1,
                         *             "attribution": {
                         *               "target": "example",
                         *               "url": "https://www.example.com/"
                         *             },
                         *             "phase_samples": 1,
                         *             "phases": {
                         *               "ttfb": 1,
                         *               "delay": 1,
                         *               "load": 1,
                         *               "render": 1
                         *             }
                         *           }
                         *         ]
                         *       },
                         *       "meta": {
                         *         "period": "example",
                         *         "device": "example",
                         *         "limit": 3
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description The whole site; null without LCP measurements. */
                                site: {
                                    /** @description LCP p75 (ms). */
                                    p75: number;
                                    samples: number;
                                    /** @description The most frequent LCP element (CSS selector) and resource URL; null when no value carries one. */
                                    attribution: {
                                        target: string | null;
                                        url: string | null;
                                    } | null;
                                    /** @description LCP measurements that carry phases. */
                                    phase_samples: number;
                                    /** @description p75 of each phase (ms) over the measurements that carry phases, each on its own (they need not add up to `p75`): `ttfb` time to first byte, `delay` resource load delay, `load` resource load duration, `render` element render delay. Null without such measurements. */
                                    phases: {
                                        ttfb: number | null;
                                        delay: number | null;
                                        load: number | null;
                                        render: number | null;
                                    };
                                } | null;
                                /** @description The slowest pages by LCP p75 (ties: more samples, then path); `anchor` is the row's fragment id on the web dashboard. */
                                pages: {
                                    path: string;
                                    anchor: string;
                                    /** @description LCP p75 (ms). */
                                    p75: number;
                                    samples: number;
                                    /** @description The most frequent LCP element (CSS selector) and resource URL; null when no value carries one. */
                                    attribution: {
                                        target: string | null;
                                        url: string | null;
                                    } | null;
                                    /** @description LCP measurements that carry phases. */
                                    phase_samples: number;
                                    /** @description p75 of each phase (ms) over the measurements that carry phases, each on its own (they need not add up to `p75`): `ttfb` time to first byte, `delay` resource load delay, `load` resource load duration, `render` element render delay. Null without such measurements. */
                                    phases: {
                                        ttfb: number | null;
                                        delay: number | null;
                                        load: number | null;
                                        render: number | null;
                                    };
                                }[];
                            };
                            meta?: {
                                period: string;
                                device: string;
                                limit: number;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description The live-data store (ClickHouse) is unreachable. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rum/sites/{id}/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The site's live-data alert configurations, oldest first. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The live-data site id from GET /rum/sites. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Alert configurations. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": 42,
                         *           "title": "example",
                         *           "mode": "auto",
                         *           "metric": "LCP",
                         *           "threshold": 1.5,
                         *           "window_minutes": 1,
                         *           "min_samples": 1,
                         *           "consecutive_threshold": 1,
                         *           "status": "active",
                         *           "emailed_at": "2026-11-24T09:30:00Z",
                         *           "resolved_at": "2026-11-24T09:30:00Z",
                         *           "created_at": "2026-11-24T09:30:00Z"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: number;
                                title: string;
                                /**
                                 * @description `auto`: LCP, INP and CLS against Google's poor thresholds (p75 above 4000 ms, 500 ms, 0.25); `manual`: `metric` against `threshold`.
                                 * @enum {unknown}
                                 */
                                mode: "auto" | "manual";
                                /** @description Manual mode; null in auto mode. */
                                metric: ("LCP" | "CLS" | "INP" | "FCP" | "TTFB") | null;
                                /** @description Manual mode: p75 above it breaches (ms, or unitless for CLS); null in auto mode. */
                                threshold: number | null;
                                /** @description p75 over this many minutes before each check. */
                                window_minutes: number;
                                /** @description Fewer samples of a metric in the window: that metric is not judged (nothing changes). */
                                min_samples: number;
                                /** @description Breaching checks in a row that trigger; recovered checks in a row that resolve. */
                                consecutive_threshold: number;
                                /**
                                 * @description `active`: never triggered; `triggered`; `resolved`.
                                 * @enum {unknown}
                                 */
                                status: "active" | "triggered" | "resolved";
                                /** @description When the e-mail about the current triggering was accepted by the mail server. */
                                emailed_at: string | null;
                                /** @description When it last resolved; null while triggered or before the first resolution. */
                                resolved_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                            }[];
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a live-data alert configuration (checked every 5 minutes).
         * @description Manual mode needs `metric` and `threshold`; auto mode takes neither. At most 20 per site (422 on `site`).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The live-data site id from GET /rum/sites. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "title": "example",
                     *       "mode": "auto",
                     *       "metric": "LCP",
                     *       "threshold": 1.5,
                     *       "window_minutes": 60,
                     *       "min_samples": 20,
                     *       "consecutive_threshold": 3
                     *     }
                     */
                    "application/json": {
                        title: string;
                        /** @enum {string} */
                        mode: "auto" | "manual";
                        /**
                         * @description Manual mode only.
                         * @enum {string}
                         */
                        metric?: "LCP" | "CLS" | "INP" | "FCP" | "TTFB";
                        /** @description Manual mode only: ms for LCP, INP, FCP and TTFB, unitless for CLS. */
                        threshold?: number;
                        /** @default 60 */
                        window_minutes?: number;
                        /** @default 20 */
                        min_samples?: number;
                        /** @default 3 */
                        consecutive_threshold?: number;
                    };
                };
            };
            responses: {
                /** @description The new configuration. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": 42,
                         *         "title": "example",
                         *         "mode": "auto",
                         *         "metric": "LCP",
                         *         "threshold": 1.5,
                         *         "window_minutes": 1,
                         *         "min_samples": 1,
                         *         "consecutive_threshold": 1,
                         *         "status": "active",
                         *         "emailed_at": "2026-11-24T09:30:00Z",
                         *         "resolved_at": "2026-11-24T09:30:00Z",
                         *         "created_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: number;
                                title: string;
                                /**
                                 * @description `auto`: LCP, INP and CLS against Google's poor thresholds (p75 above 4000 ms, 500 ms, 0.25); `manual`: `metric` against `threshold`.
                                 * @enum {unknown}
                                 */
                                mode: "auto" | "manual";
                                /** @description Manual mode; null in auto mode. */
                                metric: ("LCP" | "CLS" | "INP" | "FCP" | "TTFB") | null;
                                /** @description Manual mode: p75 above it breaches (ms, or unitless for CLS); null in auto mode. */
                                threshold: number | null;
                                /** @description p75 over this many minutes before each check. */
                                window_minutes: number;
                                /** @description Fewer samples of a metric in the window: that metric is not judged (nothing changes). */
                                min_samples: number;
                                /** @description Breaching checks in a row that trigger; recovered checks in a row that resolve. */
                                consecutive_threshold: number;
                                /**
                                 * @description `active`: never triggered; `triggered`; `resolved`.
                                 * @enum {unknown}
                                 */
                                status: "active" | "triggered" | "resolved";
                                /** @description When the e-mail about the current triggering was accepted by the mail server. */
                                emailed_at: string | null;
                                /** @description When it last resolved; null while triggered or before the first resolution. */
                                resolved_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rum/sites/{id}/alerts/{alert_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a live-data alert configuration. */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The live-data site id from GET /rum/sites. */
                    id: string;
                    /** @description The alert configuration id. */
                    alert_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a live-data alert configuration; a changed rule starts its streak again.
         * @description Switching to auto drops `metric` and `threshold`; switching to manual needs both. The status stays as it is until the next checks move it.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The live-data site id from GET /rum/sites. */
                    id: string;
                    /** @description The alert configuration id. */
                    alert_id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "title": "example",
                     *       "mode": "auto",
                     *       "metric": "LCP",
                     *       "threshold": 1.5,
                     *       "window_minutes": 5,
                     *       "min_samples": 1,
                     *       "consecutive_threshold": 1
                     *     }
                     */
                    "application/json": {
                        title?: string;
                        /** @enum {string} */
                        mode?: "auto" | "manual";
                        /**
                         * @description Manual mode only.
                         * @enum {string}
                         */
                        metric?: "LCP" | "CLS" | "INP" | "FCP" | "TTFB";
                        /** @description Manual mode only: ms for LCP, INP, FCP and TTFB, unitless for CLS. */
                        threshold?: number;
                        window_minutes?: number;
                        min_samples?: number;
                        consecutive_threshold?: number;
                    };
                };
            };
            responses: {
                /** @description The configuration. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": 42,
                         *         "title": "example",
                         *         "mode": "auto",
                         *         "metric": "LCP",
                         *         "threshold": 1.5,
                         *         "window_minutes": 1,
                         *         "min_samples": 1,
                         *         "consecutive_threshold": 1,
                         *         "status": "active",
                         *         "emailed_at": "2026-11-24T09:30:00Z",
                         *         "resolved_at": "2026-11-24T09:30:00Z",
                         *         "created_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                id: number;
                                title: string;
                                /**
                                 * @description `auto`: LCP, INP and CLS against Google's poor thresholds (p75 above 4000 ms, 500 ms, 0.25); `manual`: `metric` against `threshold`.
                                 * @enum {unknown}
                                 */
                                mode: "auto" | "manual";
                                /** @description Manual mode; null in auto mode. */
                                metric: ("LCP" | "CLS" | "INP" | "FCP" | "TTFB") | null;
                                /** @description Manual mode: p75 above it breaches (ms, or unitless for CLS); null in auto mode. */
                                threshold: number | null;
                                /** @description p75 over this many minutes before each check. */
                                window_minutes: number;
                                /** @description Fewer samples of a metric in the window: that metric is not judged (nothing changes). */
                                min_samples: number;
                                /** @description Breaching checks in a row that trigger; recovered checks in a row that resolve. */
                                consecutive_threshold: number;
                                /**
                                 * @description `active`: never triggered; `triggered`; `resolved`.
                                 * @enum {unknown}
                                 */
                                status: "active" | "triggered" | "resolved";
                                /** @description When the e-mail about the current triggering was accepted by the mail server. */
                                emailed_at: string | null;
                                /** @description When it last resolved; null while triggered or before the first resolution. */
                                resolved_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/flows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's user flows, oldest first. */
        get: {
            parameters: {
                query?: {
                    /** @description Results per page, 1 to 50. */
                    limit?: number;
                    /** @description Page number, from 1. */
                    page?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of flows. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "example",
                         *           "name": "Example",
                         *           "form_factor": "desktop",
                         *           "steps": [
                         *             {
                         *               "type": "navigate",
                         *               "url": "https://shop.example.com/",
                         *               "name": "Home"
                         *             },
                         *             {
                         *               "type": "click",
                         *               "selector": "aria/Sign in"
                         *             },
                         *             {
                         *               "type": "wait_for_navigation"
                         *             },
                         *             {
                         *               "type": "type",
                         *               "selector": "#email",
                         *               "text": "ann@example.com"
                         *             },
                         *             {
                         *               "type": "type",
                         *               "selector": "#password",
                         *               "secret": "password"
                         *             },
                         *             {
                         *               "type": "start_timespan",
                         *               "name": "Sign in"
                         *             },
                         *             {
                         *               "type": "click",
                         *               "selector": "form > button[type=\"submit\"]"
                         *             },
                         *             {
                         *               "type": "wait_for_navigation"
                         *             },
                         *             {
                         *               "type": "end_timespan"
                         *             },
                         *             {
                         *               "type": "snapshot",
                         *               "name": "Account page"
                         *             }
                         *           ],
                         *           "secrets": [
                         *             {
                         *               "name": "Example",
                         *               "kind": "password",
                         *               "updated_at": "2026-11-24T09:30:00Z"
                         *             }
                         *           ],
                         *           "missing_secrets": [
                         *             "example"
                         *           ],
                         *           "monitored": false,
                         *           "budgets": {},
                         *           "created_at": "2026-11-24T09:30:00Z",
                         *           "updated_at": "2026-11-24T09:30:00Z"
                         *         }
                         *       ],
                         *       "meta": {
                         *         "current_page": 3,
                         *         "per_page": 3,
                         *         "total": 3,
                         *         "last_page": 3
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description The flow id. */
                                id: string;
                                name: string;
                                /** @enum {unknown} */
                                form_factor: "desktop" | "mobile";
                                /**
                                 * @example [
                                 *       {
                                 *         "type": "navigate",
                                 *         "url": "https://shop.example.com/",
                                 *         "name": "Home"
                                 *       },
                                 *       {
                                 *         "type": "click",
                                 *         "selector": "aria/Sign in"
                                 *       },
                                 *       {
                                 *         "type": "wait_for_navigation"
                                 *       },
                                 *       {
                                 *         "type": "type",
                                 *         "selector": "#email",
                                 *         "text": "ann@example.com"
                                 *       },
                                 *       {
                                 *         "type": "type",
                                 *         "selector": "#password",
                                 *         "secret": "password"
                                 *       },
                                 *       {
                                 *         "type": "start_timespan",
                                 *         "name": "Sign in"
                                 *       },
                                 *       {
                                 *         "type": "click",
                                 *         "selector": "form > button[type=\"submit\"]"
                                 *       },
                                 *       {
                                 *         "type": "wait_for_navigation"
                                 *       },
                                 *       {
                                 *         "type": "end_timespan"
                                 *       },
                                 *       {
                                 *         "type": "snapshot",
                                 *         "name": "Account page"
                                 *       }
                                 *     ]
                                 */
                                steps: ({
                                    /** @enum {unknown} */
                                    type: "navigate" | "start_timespan" | "end_timespan" | "snapshot" | "click" | "type" | "select" | "wait_for_selector" | "wait_for_navigation";
                                    /** @description http(s) URL; normalised like a scan URL. */
                                    url?: string;
                                    name?: string;
                                    /** @description A selector Puppeteer accepts: CSS, or `aria/Accessible name`, `text/Visible text`, `pierce/css` (through shadow roots), `xpath/…`, or the `::-p-…` forms. */
                                    selector?: string;
                                    /** @description A literal to type. */
                                    text?: string;
                                    /** @description The name of a secret of the flow to type instead of a literal. */
                                    secret?: string;
                                    /** @description The origin the secret may be typed on, when not the origin of the first navigate step. */
                                    secret_origin?: string;
                                    /** @description The option value to select. */
                                    value?: string;
                                } & (unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown))[];
                                /** @description Names and kinds only; values are write-only. */
                                secrets: {
                                    name: string;
                                    /** @enum {unknown} */
                                    kind: "password" | "totp";
                                    /** Format: date-time */
                                    updated_at: string;
                                }[];
                                /** @description Secrets the steps type that are not set yet: a run is refused (422) until they are. */
                                missing_secrets: string[];
                                /** @description Run daily on a schedule of its own (trigger `schedule`); counts against the plan's monitored-target limit. A failed run of a monitored flow (any trigger) raises a `flow_failed` alert (warning; critical when the next run fails too), resolved by the next run that gets through. */
                                monitored: boolean;
                                /** @description Extension: step budgets, keyed by a measured step's index in `steps`. After each finished run of a monitored flow a broken budget raises one `metric_over_budget` alert for the flow (warning; critical at 50 % or more past the budget); it resolves when every budget holds with a margin (metrics at most 90 %, scores at least 3 points above). A change of `steps` that leaves a budgeted index without a measured step of that kind is refused (422). Default `{}`. */
                                budgets: {
                                    [key: string]: {
                                        /** @description Largest contentful paint, ms. */
                                        lcp_ms?: number;
                                        /** @description First contentful paint, ms. */
                                        fcp_ms?: number;
                                        /** @description Total blocking time, ms. */
                                        tbt_ms?: number;
                                        /** @description Cumulative layout shift (unitless). */
                                        cls?: number;
                                        /** @description Time to first byte, ms. */
                                        ttfb_ms?: number;
                                        /** @description Interaction to next paint, ms (timespan steps). */
                                        inp_ms?: number;
                                        /** @description The least each Lighthouse category score (0–100) may be; navigation steps have all four, snapshots all but performance, timespans none. */
                                        scores?: {
                                            performance?: number;
                                            accessibility?: number;
                                            best_practices?: number;
                                            seo?: number;
                                        };
                                    };
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                            meta?: {
                                current_page: number;
                                per_page: number;
                                total: number;
                                last_page: number;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a user flow from steps, or import it from a Chrome DevTools Recorder export.
         * @description Send `steps`, or `recording` (the Recorder's JSON export; `name` defaults to its title): the import's `warnings` name each recorded step that was changed or left out, and fields whose selectors mention a password or a one-time code type a secret (`password`, `totp`) instead of the recorded value, which is not kept. `secrets` sets secret values at once (write-only). 403 without the flows feature, when the plan keeps no more flows, or for more steps than the plan allows per flow; 422 for invalid steps (the first must be `navigate`; URLs are normalised like scan URLs and must point to public addresses).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Sign in",
                     *       "form_factor": "desktop",
                     *       "steps": [
                     *         {
                     *           "type": "navigate",
                     *           "url": "https://shop.example.com/",
                     *           "name": "Home"
                     *         },
                     *         {
                     *           "type": "click",
                     *           "selector": "aria/Sign in"
                     *         },
                     *         {
                     *           "type": "wait_for_navigation"
                     *         },
                     *         {
                     *           "type": "type",
                     *           "selector": "#email",
                     *           "text": "ann@example.com"
                     *         },
                     *         {
                     *           "type": "type",
                     *           "selector": "#password",
                     *           "secret": "password"
                     *         },
                     *         {
                     *           "type": "start_timespan",
                     *           "name": "Sign in"
                     *         },
                     *         {
                     *           "type": "click",
                     *           "selector": "form > button[type=\"submit\"]"
                     *         },
                     *         {
                     *           "type": "wait_for_navigation"
                     *         },
                     *         {
                     *           "type": "end_timespan"
                     *         },
                     *         {
                     *           "type": "snapshot",
                     *           "name": "Account page"
                     *         }
                     *       ],
                     *       "secrets": {
                     *         "password": {
                     *           "kind": "password",
                     *           "value": "correct horse battery staple"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        name?: string;
                        /** @enum {unknown} */
                        form_factor: "desktop" | "mobile";
                        /**
                         * @description The flow's steps in order; at most the plan's steps per flow (403 beyond it).
                         * @example [
                         *       {
                         *         "type": "navigate",
                         *         "url": "https://shop.example.com/",
                         *         "name": "Home"
                         *       },
                         *       {
                         *         "type": "click",
                         *         "selector": "aria/Sign in"
                         *       },
                         *       {
                         *         "type": "wait_for_navigation"
                         *       },
                         *       {
                         *         "type": "type",
                         *         "selector": "#email",
                         *         "text": "ann@example.com"
                         *       },
                         *       {
                         *         "type": "type",
                         *         "selector": "#password",
                         *         "secret": "password"
                         *       },
                         *       {
                         *         "type": "start_timespan",
                         *         "name": "Sign in"
                         *       },
                         *       {
                         *         "type": "click",
                         *         "selector": "form > button[type=\"submit\"]"
                         *       },
                         *       {
                         *         "type": "wait_for_navigation"
                         *       },
                         *       {
                         *         "type": "end_timespan"
                         *       },
                         *       {
                         *         "type": "snapshot",
                         *         "name": "Account page"
                         *       }
                         *     ]
                         */
                        steps?: ({
                            /** @enum {unknown} */
                            type: "navigate" | "start_timespan" | "end_timespan" | "snapshot" | "click" | "type" | "select" | "wait_for_selector" | "wait_for_navigation";
                            /** @description http(s) URL; normalised like a scan URL. */
                            url?: string;
                            name?: string;
                            /** @description A selector Puppeteer accepts: CSS, or `aria/Accessible name`, `text/Visible text`, `pierce/css` (through shadow roots), `xpath/…`, or the `::-p-…` forms. */
                            selector?: string;
                            /** @description A literal to type. */
                            text?: string;
                            /** @description The name of a secret of the flow to type instead of a literal. */
                            secret?: string;
                            /** @description The origin the secret may be typed on, when not the origin of the first navigate step. */
                            secret_origin?: string;
                            /** @description The option value to select. */
                            value?: string;
                        } & (unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown))[];
                        /** @description Run the flow daily on a Temporal Schedule of its own (trigger `schedule`; default false). A monitored flow counts against the plan's monitored-target limit: 403 with `required_plan` like a target past it. */
                        monitored?: boolean;
                        /** @description Extension: step budgets, keyed by a measured step's index in `steps`. After each finished run of a monitored flow a broken budget raises one `metric_over_budget` alert for the flow (warning; critical at 50 % or more past the budget); it resolves when every budget holds with a margin (metrics at most 90 %, scores at least 3 points above). A change of `steps` that leaves a budgeted index without a measured step of that kind is refused (422). Default `{}`. */
                        budgets?: {
                            [key: string]: {
                                /** @description Largest contentful paint, ms. */
                                lcp_ms?: number;
                                /** @description First contentful paint, ms. */
                                fcp_ms?: number;
                                /** @description Total blocking time, ms. */
                                tbt_ms?: number;
                                /** @description Cumulative layout shift (unitless). */
                                cls?: number;
                                /** @description Time to first byte, ms. */
                                ttfb_ms?: number;
                                /** @description Interaction to next paint, ms (timespan steps). */
                                inp_ms?: number;
                                /** @description The least each Lighthouse category score (0–100) may be; navigation steps have all four, snapshots all but performance, timespans none. */
                                scores?: {
                                    performance?: number;
                                    accessibility?: number;
                                    best_practices?: number;
                                    seo?: number;
                                };
                            };
                        };
                        /** @description A Chrome DevTools Recorder export (`title`, `steps`), instead of `steps`. */
                        recording?: Record<string, never>;
                        /** @description Secret values by name (write-only), e.g. `{"password": {"kind": "password", "value": "…"}}`. */
                        secrets?: {
                            [key: string]: {
                                /**
                                 * @description `totp`: the base32 seed; the current 6-digit code is typed.
                                 * @enum {unknown}
                                 */
                                kind: "password" | "totp";
                                /** @description Write-only: never returned. */
                                value: string;
                            };
                        };
                    };
                };
            };
            responses: {
                /** @description The flow, with the import warnings. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": "example",
                         *         "name": "Example",
                         *         "form_factor": "desktop",
                         *         "steps": [
                         *           {
                         *             "type": "navigate",
                         *             "url": "https://shop.example.com/",
                         *             "name": "Home"
                         *           },
                         *           {
                         *             "type": "click",
                         *             "selector": "aria/Sign in"
                         *           },
                         *           {
                         *             "type": "wait_for_navigation"
                         *           },
                         *           {
                         *             "type": "type",
                         *             "selector": "#email",
                         *             "text": "ann@example.com"
                         *           },
                         *           {
                         *             "type": "type",
                         *             "selector": "#password",
                         *             "secret": "password"
                         *           },
                         *           {
                         *             "type": "start_timespan",
                         *             "name": "Sign in"
                         *           },
                         *           {
                         *             "type": "click",
                         *             "selector": "form > button[type=\"submit\"]"
                         *           },
                         *           {
                         *             "type": "wait_for_navigation"
                         *           },
                         *           {
                         *             "type": "end_timespan"
                         *           },
                         *           {
                         *             "type": "snapshot",
                         *             "name": "Account page"
                         *           }
                         *         ],
                         *         "secrets": [
                         *           {
                         *             "name": "Example",
                         *             "kind": "password",
                         *             "updated_at": "2026-11-24T09:30:00Z"
                         *           }
                         *         ],
                         *         "missing_secrets": [
                         *           "example"
                         *         ],
                         *         "monitored": false,
                         *         "budgets": {},
                         *         "created_at": "2026-11-24T09:30:00Z",
                         *         "updated_at": "2026-11-24T09:30:00Z",
                         *         "warnings": [
                         *           "example"
                         *         ]
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description The flow id. */
                                id: string;
                                name: string;
                                /** @enum {unknown} */
                                form_factor: "desktop" | "mobile";
                                /**
                                 * @example [
                                 *       {
                                 *         "type": "navigate",
                                 *         "url": "https://shop.example.com/",
                                 *         "name": "Home"
                                 *       },
                                 *       {
                                 *         "type": "click",
                                 *         "selector": "aria/Sign in"
                                 *       },
                                 *       {
                                 *         "type": "wait_for_navigation"
                                 *       },
                                 *       {
                                 *         "type": "type",
                                 *         "selector": "#email",
                                 *         "text": "ann@example.com"
                                 *       },
                                 *       {
                                 *         "type": "type",
                                 *         "selector": "#password",
                                 *         "secret": "password"
                                 *       },
                                 *       {
                                 *         "type": "start_timespan",
                                 *         "name": "Sign in"
                                 *       },
                                 *       {
                                 *         "type": "click",
                                 *         "selector": "form > button[type=\"submit\"]"
                                 *       },
                                 *       {
                                 *         "type": "wait_for_navigation"
                                 *       },
                                 *       {
                                 *         "type": "end_timespan"
                                 *       },
                                 *       {
                                 *         "type": "snapshot",
                                 *         "name": "Account page"
                                 *       }
                                 *     ]
                                 */
                                steps: ({
                                    /** @enum {unknown} */
                                    type: "navigate" | "start_timespan" | "end_timespan" | "snapshot" | "click" | "type" | "select" | "wait_for_selector" | "wait_for_navigation";
                                    /** @description http(s) URL; normalised like a scan URL. */
                                    url?: string;
                                    name?: string;
                                    /** @description A selector Puppeteer accepts: CSS, or `aria/Accessible name`, `text/Visible text`, `pierce/css` (through shadow roots), `xpath/…`, or the `::-p-…` forms. */
                                    selector?: string;
                                    /** @description A literal to type. */
                                    text?: string;
                                    /** @description The name of a secret of the flow to type instead of a literal. */
                                    secret?: string;
                                    /** @description The origin the secret may be typed on, when not the origin of the first navigate step. */
                                    secret_origin?: string;
                                    /** @description The option value to select. */
                                    value?: string;
                                } & (unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown))[];
                                /** @description Names and kinds only; values are write-only. */
                                secrets: {
                                    name: string;
                                    /** @enum {unknown} */
                                    kind: "password" | "totp";
                                    /** Format: date-time */
                                    updated_at: string;
                                }[];
                                /** @description Secrets the steps type that are not set yet: a run is refused (422) until they are. */
                                missing_secrets: string[];
                                /** @description Run daily on a schedule of its own (trigger `schedule`); counts against the plan's monitored-target limit. A failed run of a monitored flow (any trigger) raises a `flow_failed` alert (warning; critical when the next run fails too), resolved by the next run that gets through. */
                                monitored: boolean;
                                /** @description Extension: step budgets, keyed by a measured step's index in `steps`. After each finished run of a monitored flow a broken budget raises one `metric_over_budget` alert for the flow (warning; critical at 50 % or more past the budget); it resolves when every budget holds with a margin (metrics at most 90 %, scores at least 3 points above). A change of `steps` that leaves a budgeted index without a measured step of that kind is refused (422). Default `{}`. */
                                budgets: {
                                    [key: string]: {
                                        /** @description Largest contentful paint, ms. */
                                        lcp_ms?: number;
                                        /** @description First contentful paint, ms. */
                                        fcp_ms?: number;
                                        /** @description Total blocking time, ms. */
                                        tbt_ms?: number;
                                        /** @description Cumulative layout shift (unitless). */
                                        cls?: number;
                                        /** @description Time to first byte, ms. */
                                        ttfb_ms?: number;
                                        /** @description Interaction to next paint, ms (timespan steps). */
                                        inp_ms?: number;
                                        /** @description The least each Lighthouse category score (0–100) may be; navigation steps have all four, snapshots all but performance, timespans none. */
                                        scores?: {
                                            performance?: number;
                                            accessibility?: number;
                                            best_practices?: number;
                                            seo?: number;
                                        };
                                    };
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                                /** @description For a Recorder import, each recorded step that was changed or left out; empty otherwise. */
                                warnings: string[];
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description Temporal is unreachable; nothing was started. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A flow: its steps, and its secrets by name and kind. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The flow id from GET /flows. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The flow. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": "example",
                         *         "name": "Example",
                         *         "form_factor": "desktop",
                         *         "steps": [
                         *           {
                         *             "type": "navigate",
                         *             "url": "https://shop.example.com/",
                         *             "name": "Home"
                         *           },
                         *           {
                         *             "type": "click",
                         *             "selector": "aria/Sign in"
                         *           },
                         *           {
                         *             "type": "wait_for_navigation"
                         *           },
                         *           {
                         *             "type": "type",
                         *             "selector": "#email",
                         *             "text": "ann@example.com"
                         *           },
                         *           {
                         *             "type": "type",
                         *             "selector": "#password",
                         *             "secret": "password"
                         *           },
                         *           {
                         *             "type": "start_timespan",
                         *             "name": "Sign in"
                         *           },
                         *           {
                         *             "type": "click",
                         *             "selector": "form > button[type=\"submit\"]"
                         *           },
                         *           {
                         *             "type": "wait_for_navigation"
                         *           },
                         *           {
                         *             "type": "end_timespan"
                         *           },
                         *           {
                         *             "type": "snapshot",
                         *             "name": "Account page"
                         *           }
                         *         ],
                         *         "secrets": [
                         *           {
                         *             "name": "Example",
                         *             "kind": "password",
                         *             "updated_at": "2026-11-24T09:30:00Z"
                         *           }
                         *         ],
                         *         "missing_secrets": [
                         *           "example"
                         *         ],
                         *         "monitored": false,
                         *         "budgets": {},
                         *         "created_at": "2026-11-24T09:30:00Z",
                         *         "updated_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description The flow id. */
                                id: string;
                                name: string;
                                /** @enum {unknown} */
                                form_factor: "desktop" | "mobile";
                                /**
                                 * @example [
                                 *       {
                                 *         "type": "navigate",
                                 *         "url": "https://shop.example.com/",
                                 *         "name": "Home"
                                 *       },
                                 *       {
                                 *         "type": "click",
                                 *         "selector": "aria/Sign in"
                                 *       },
                                 *       {
                                 *         "type": "wait_for_navigation"
                                 *       },
                                 *       {
                                 *         "type": "type",
                                 *         "selector": "#email",
                                 *         "text": "ann@example.com"
                                 *       },
                                 *       {
                                 *         "type": "type",
                                 *         "selector": "#password",
                                 *         "secret": "password"
                                 *       },
                                 *       {
                                 *         "type": "start_timespan",
                                 *         "name": "Sign in"
                                 *       },
                                 *       {
                                 *         "type": "click",
                                 *         "selector": "form > button[type=\"submit\"]"
                                 *       },
                                 *       {
                                 *         "type": "wait_for_navigation"
                                 *       },
                                 *       {
                                 *         "type": "end_timespan"
                                 *       },
                                 *       {
                                 *         "type": "snapshot",
                                 *         "name": "Account page"
                                 *       }
                                 *     ]
                                 */
                                steps: ({
                                    /** @enum {unknown} */
                                    type: "navigate" | "start_timespan" | "end_timespan" | "snapshot" | "click" | "type" | "select" | "wait_for_selector" | "wait_for_navigation";
                                    /** @description http(s) URL; normalised like a scan URL. */
                                    url?: string;
                                    name?: string;
                                    /** @description A selector Puppeteer accepts: CSS, or `aria/Accessible name`, `text/Visible text`, `pierce/css` (through shadow roots), `xpath/…`, or the `::-p-…` forms. */
                                    selector?: string;
                                    /** @description A literal to type. */
                                    text?: string;
                                    /** @description The name of a secret of the flow to type instead of a literal. */
                                    secret?: string;
                                    /** @description The origin the secret may be typed on, when not the origin of the first navigate step. */
                                    secret_origin?: string;
                                    /** @description The option value to select. */
                                    value?: string;
                                } & (unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown))[];
                                /** @description Names and kinds only; values are write-only. */
                                secrets: {
                                    name: string;
                                    /** @enum {unknown} */
                                    kind: "password" | "totp";
                                    /** Format: date-time */
                                    updated_at: string;
                                }[];
                                /** @description Secrets the steps type that are not set yet: a run is refused (422) until they are. */
                                missing_secrets: string[];
                                /** @description Run daily on a schedule of its own (trigger `schedule`); counts against the plan's monitored-target limit. A failed run of a monitored flow (any trigger) raises a `flow_failed` alert (warning; critical when the next run fails too), resolved by the next run that gets through. */
                                monitored: boolean;
                                /** @description Extension: step budgets, keyed by a measured step's index in `steps`. After each finished run of a monitored flow a broken budget raises one `metric_over_budget` alert for the flow (warning; critical at 50 % or more past the budget); it resolves when every budget holds with a margin (metrics at most 90 %, scores at least 3 points above). A change of `steps` that leaves a budgeted index without a measured step of that kind is refused (422). Default `{}`. */
                                budgets: {
                                    [key: string]: {
                                        /** @description Largest contentful paint, ms. */
                                        lcp_ms?: number;
                                        /** @description First contentful paint, ms. */
                                        fcp_ms?: number;
                                        /** @description Total blocking time, ms. */
                                        tbt_ms?: number;
                                        /** @description Cumulative layout shift (unitless). */
                                        cls?: number;
                                        /** @description Time to first byte, ms. */
                                        ttfb_ms?: number;
                                        /** @description Interaction to next paint, ms (timespan steps). */
                                        inp_ms?: number;
                                        /** @description The least each Lighthouse category score (0–100) may be; navigation steps have all four, snapshots all but performance, timespans none. */
                                        scores?: {
                                            performance?: number;
                                            accessibility?: number;
                                            best_practices?: number;
                                            seo?: number;
                                        };
                                    };
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a flow with its secrets, runs and their screenshots; runs in flight are stopped. */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The flow id from GET /flows. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description Temporal is unreachable; nothing was started. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Rename a flow, change its form factor, replace its steps (checked as on creation), or turn its monitoring on or off. */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The flow id from GET /flows. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /**
                     * @example {
                     *       "name": "Example",
                     *       "form_factor": "desktop",
                     *       "steps": [
                     *         {
                     *           "type": "navigate",
                     *           "url": "https://shop.example.com/",
                     *           "name": "Home"
                     *         },
                     *         {
                     *           "type": "click",
                     *           "selector": "aria/Sign in"
                     *         },
                     *         {
                     *           "type": "wait_for_navigation"
                     *         },
                     *         {
                     *           "type": "type",
                     *           "selector": "#email",
                     *           "text": "ann@example.com"
                     *         },
                     *         {
                     *           "type": "type",
                     *           "selector": "#password",
                     *           "secret": "password"
                     *         },
                     *         {
                     *           "type": "start_timespan",
                     *           "name": "Sign in"
                     *         },
                     *         {
                     *           "type": "click",
                     *           "selector": "form > button[type=\"submit\"]"
                     *         },
                     *         {
                     *           "type": "wait_for_navigation"
                     *         },
                     *         {
                     *           "type": "end_timespan"
                     *         },
                     *         {
                     *           "type": "snapshot",
                     *           "name": "Account page"
                     *         }
                     *       ],
                     *       "monitored": false,
                     *       "budgets": {}
                     *     }
                     */
                    "application/json": {
                        name?: string;
                        /** @enum {unknown} */
                        form_factor?: "desktop" | "mobile";
                        /**
                         * @description The flow's steps in order; at most the plan's steps per flow (403 beyond it).
                         * @example [
                         *       {
                         *         "type": "navigate",
                         *         "url": "https://shop.example.com/",
                         *         "name": "Home"
                         *       },
                         *       {
                         *         "type": "click",
                         *         "selector": "aria/Sign in"
                         *       },
                         *       {
                         *         "type": "wait_for_navigation"
                         *       },
                         *       {
                         *         "type": "type",
                         *         "selector": "#email",
                         *         "text": "ann@example.com"
                         *       },
                         *       {
                         *         "type": "type",
                         *         "selector": "#password",
                         *         "secret": "password"
                         *       },
                         *       {
                         *         "type": "start_timespan",
                         *         "name": "Sign in"
                         *       },
                         *       {
                         *         "type": "click",
                         *         "selector": "form > button[type=\"submit\"]"
                         *       },
                         *       {
                         *         "type": "wait_for_navigation"
                         *       },
                         *       {
                         *         "type": "end_timespan"
                         *       },
                         *       {
                         *         "type": "snapshot",
                         *         "name": "Account page"
                         *       }
                         *     ]
                         */
                        steps?: ({
                            /** @enum {unknown} */
                            type: "navigate" | "start_timespan" | "end_timespan" | "snapshot" | "click" | "type" | "select" | "wait_for_selector" | "wait_for_navigation";
                            /** @description http(s) URL; normalised like a scan URL. */
                            url?: string;
                            name?: string;
                            /** @description A selector Puppeteer accepts: CSS, or `aria/Accessible name`, `text/Visible text`, `pierce/css` (through shadow roots), `xpath/…`, or the `::-p-…` forms. */
                            selector?: string;
                            /** @description A literal to type. */
                            text?: string;
                            /** @description The name of a secret of the flow to type instead of a literal. */
                            secret?: string;
                            /** @description The origin the secret may be typed on, when not the origin of the first navigate step. */
                            secret_origin?: string;
                            /** @description The option value to select. */
                            value?: string;
                        } & (unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown))[];
                        /** @description Run the flow daily on a Temporal Schedule of its own (trigger `schedule`; default false). A monitored flow counts against the plan's monitored-target limit: 403 with `required_plan` like a target past it. */
                        monitored?: boolean;
                        /** @description Extension: step budgets, keyed by a measured step's index in `steps`. After each finished run of a monitored flow a broken budget raises one `metric_over_budget` alert for the flow (warning; critical at 50 % or more past the budget); it resolves when every budget holds with a margin (metrics at most 90 %, scores at least 3 points above). A change of `steps` that leaves a budgeted index without a measured step of that kind is refused (422). Default `{}`. */
                        budgets?: {
                            [key: string]: {
                                /** @description Largest contentful paint, ms. */
                                lcp_ms?: number;
                                /** @description First contentful paint, ms. */
                                fcp_ms?: number;
                                /** @description Total blocking time, ms. */
                                tbt_ms?: number;
                                /** @description Cumulative layout shift (unitless). */
                                cls?: number;
                                /** @description Time to first byte, ms. */
                                ttfb_ms?: number;
                                /** @description Interaction to next paint, ms (timespan steps). */
                                inp_ms?: number;
                                /** @description The least each Lighthouse category score (0–100) may be; navigation steps have all four, snapshots all but performance, timespans none. */
                                scores?: {
                                    performance?: number;
                                    accessibility?: number;
                                    best_practices?: number;
                                    seo?: number;
                                };
                            };
                        };
                    };
                };
            };
            responses: {
                /** @description The flow. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": "example",
                         *         "name": "Example",
                         *         "form_factor": "desktop",
                         *         "steps": [
                         *           {
                         *             "type": "navigate",
                         *             "url": "https://shop.example.com/",
                         *             "name": "Home"
                         *           },
                         *           {
                         *             "type": "click",
                         *             "selector": "aria/Sign in"
                         *           },
                         *           {
                         *             "type": "wait_for_navigation"
                         *           },
                         *           {
                         *             "type": "type",
                         *             "selector": "#email",
                         *             "text": "ann@example.com"
                         *           },
                         *           {
                         *             "type": "type",
                         *             "selector": "#password",
                         *             "secret": "password"
                         *           },
                         *           {
                         *             "type": "start_timespan",
                         *             "name": "Sign in"
                         *           },
                         *           {
                         *             "type": "click",
                         *             "selector": "form > button[type=\"submit\"]"
                         *           },
                         *           {
                         *             "type": "wait_for_navigation"
                         *           },
                         *           {
                         *             "type": "end_timespan"
                         *           },
                         *           {
                         *             "type": "snapshot",
                         *             "name": "Account page"
                         *           }
                         *         ],
                         *         "secrets": [
                         *           {
                         *             "name": "Example",
                         *             "kind": "password",
                         *             "updated_at": "2026-11-24T09:30:00Z"
                         *           }
                         *         ],
                         *         "missing_secrets": [
                         *           "example"
                         *         ],
                         *         "monitored": false,
                         *         "budgets": {},
                         *         "created_at": "2026-11-24T09:30:00Z",
                         *         "updated_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description The flow id. */
                                id: string;
                                name: string;
                                /** @enum {unknown} */
                                form_factor: "desktop" | "mobile";
                                /**
                                 * @example [
                                 *       {
                                 *         "type": "navigate",
                                 *         "url": "https://shop.example.com/",
                                 *         "name": "Home"
                                 *       },
                                 *       {
                                 *         "type": "click",
                                 *         "selector": "aria/Sign in"
                                 *       },
                                 *       {
                                 *         "type": "wait_for_navigation"
                                 *       },
                                 *       {
                                 *         "type": "type",
                                 *         "selector": "#email",
                                 *         "text": "ann@example.com"
                                 *       },
                                 *       {
                                 *         "type": "type",
                                 *         "selector": "#password",
                                 *         "secret": "password"
                                 *       },
                                 *       {
                                 *         "type": "start_timespan",
                                 *         "name": "Sign in"
                                 *       },
                                 *       {
                                 *         "type": "click",
                                 *         "selector": "form > button[type=\"submit\"]"
                                 *       },
                                 *       {
                                 *         "type": "wait_for_navigation"
                                 *       },
                                 *       {
                                 *         "type": "end_timespan"
                                 *       },
                                 *       {
                                 *         "type": "snapshot",
                                 *         "name": "Account page"
                                 *       }
                                 *     ]
                                 */
                                steps: ({
                                    /** @enum {unknown} */
                                    type: "navigate" | "start_timespan" | "end_timespan" | "snapshot" | "click" | "type" | "select" | "wait_for_selector" | "wait_for_navigation";
                                    /** @description http(s) URL; normalised like a scan URL. */
                                    url?: string;
                                    name?: string;
                                    /** @description A selector Puppeteer accepts: CSS, or `aria/Accessible name`, `text/Visible text`, `pierce/css` (through shadow roots), `xpath/…`, or the `::-p-…` forms. */
                                    selector?: string;
                                    /** @description A literal to type. */
                                    text?: string;
                                    /** @description The name of a secret of the flow to type instead of a literal. */
                                    secret?: string;
                                    /** @description The origin the secret may be typed on, when not the origin of the first navigate step. */
                                    secret_origin?: string;
                                    /** @description The option value to select. */
                                    value?: string;
                                } & (unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown & unknown))[];
                                /** @description Names and kinds only; values are write-only. */
                                secrets: {
                                    name: string;
                                    /** @enum {unknown} */
                                    kind: "password" | "totp";
                                    /** Format: date-time */
                                    updated_at: string;
                                }[];
                                /** @description Secrets the steps type that are not set yet: a run is refused (422) until they are. */
                                missing_secrets: string[];
                                /** @description Run daily on a schedule of its own (trigger `schedule`); counts against the plan's monitored-target limit. A failed run of a monitored flow (any trigger) raises a `flow_failed` alert (warning; critical when the next run fails too), resolved by the next run that gets through. */
                                monitored: boolean;
                                /** @description Extension: step budgets, keyed by a measured step's index in `steps`. After each finished run of a monitored flow a broken budget raises one `metric_over_budget` alert for the flow (warning; critical at 50 % or more past the budget); it resolves when every budget holds with a margin (metrics at most 90 %, scores at least 3 points above). A change of `steps` that leaves a budgeted index without a measured step of that kind is refused (422). Default `{}`. */
                                budgets: {
                                    [key: string]: {
                                        /** @description Largest contentful paint, ms. */
                                        lcp_ms?: number;
                                        /** @description First contentful paint, ms. */
                                        fcp_ms?: number;
                                        /** @description Total blocking time, ms. */
                                        tbt_ms?: number;
                                        /** @description Cumulative layout shift (unitless). */
                                        cls?: number;
                                        /** @description Time to first byte, ms. */
                                        ttfb_ms?: number;
                                        /** @description Interaction to next paint, ms (timespan steps). */
                                        inp_ms?: number;
                                        /** @description The least each Lighthouse category score (0–100) may be; navigation steps have all four, snapshots all but performance, timespans none. */
                                        scores?: {
                                            performance?: number;
                                            accessibility?: number;
                                            best_practices?: number;
                                            seo?: number;
                                        };
                                    };
                                };
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description Temporal is unreachable; nothing was started. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/flows/{id}/secrets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a secret of the flow (a password, or a TOTP's base32 seed); its value is never returned.
         * @description Stored encrypted; decrypted only by the worker that runs the flow, and typed only on the origin of the first `navigate` step (or the step's `secret_origin`). The answer lists the flow's secrets by name and kind.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The flow id from GET /flows. */
                    id: string;
                    /** @description The secret name the steps refer to. */
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "kind": "password",
                     *       "value": "example"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description `totp`: the base32 seed; the current 6-digit code is typed.
                         * @enum {unknown}
                         */
                        kind: "password" | "totp";
                        /** @description Write-only: never returned. */
                        value: string;
                    };
                };
            };
            responses: {
                /** @description The secret was replaced. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "name": "Example",
                         *           "kind": "password",
                         *           "updated_at": "2026-11-24T09:30:00Z"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            data: {
                                name: string;
                                /** @enum {unknown} */
                                kind: "password" | "totp";
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description The secret was new. */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "name": "Example",
                         *           "kind": "password",
                         *           "updated_at": "2026-11-24T09:30:00Z"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            data: {
                                name: string;
                                /** @enum {unknown} */
                                kind: "password" | "totp";
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        post?: never;
        /** Remove a secret of the flow. */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The flow id from GET /flows. */
                    id: string;
                    /** @description The secret name the steps refer to. */
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed. */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The flow's runs, newest first. */
        get: {
            parameters: {
                query?: {
                    /** @description Results per page, 1 to 50. */
                    limit?: number;
                    /** @description Page number, from 1. */
                    page?: number;
                };
                header?: never;
                path: {
                    /** @description The flow id from GET /flows. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of runs. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "id": "example",
                         *           "flow_id": "example",
                         *           "status": "queued",
                         *           "trigger": "api",
                         *           "region": "eu-central",
                         *           "requested_at": "2026-11-24T09:30:00Z",
                         *           "started_at": "2026-11-24T09:30:00Z",
                         *           "finished_at": "2026-11-24T09:30:00Z"
                         *         }
                         *       ],
                         *       "meta": {
                         *         "current_page": 3,
                         *         "per_page": 3,
                         *         "total": 3,
                         *         "last_page": 3
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description The run id. */
                                id: string;
                                flow_id: string;
                                /** @enum {unknown} */
                                status: "queued" | "running" | "finished" | "failed";
                                /**
                                 * @description What started the run: the API, the web area, or the flow's daily schedule.
                                 * @enum {unknown}
                                 */
                                trigger: "api" | "web" | "schedule";
                                region: string;
                                /** Format: date-time */
                                requested_at: string;
                                started_at: string | null;
                                finished_at: string | null;
                            }[];
                            meta?: {
                                current_page: number;
                                per_page: number;
                                total: number;
                                last_page: number;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Run the flow now: queued, then measured step by step in one browser session.
         * @description A run waits for a Lighthouse slot of the region like a scan (the plan's scans in flight per region count runs too). While a run of the flow is queued or running, that run is the answer. 422 naming each secret the steps type that is not set; 503 when the run cannot be started (it is recorded as failed). Follow it with GET /flows/{id}/runs/{run_id}.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The flow id from GET /flows. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    /** @example {} */
                    "application/json": Record<string, never>;
                };
            };
            responses: {
                /** @description The run, queued (or the one already queued or running). */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": "example",
                         *         "flow_id": "example",
                         *         "status": "queued",
                         *         "trigger": "api",
                         *         "region": "eu-central",
                         *         "requested_at": "2026-11-24T09:30:00Z",
                         *         "started_at": "2026-11-24T09:30:00Z",
                         *         "finished_at": "2026-11-24T09:30:00Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description The run id. */
                                id: string;
                                flow_id: string;
                                /** @enum {unknown} */
                                status: "queued" | "running" | "finished" | "failed";
                                /**
                                 * @description What started the run: the API, the web area, or the flow's daily schedule.
                                 * @enum {unknown}
                                 */
                                trigger: "api" | "web" | "schedule";
                                region: string;
                                /** Format: date-time */
                                requested_at: string;
                                started_at: string | null;
                                finished_at: string | null;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
                /** @description Temporal is unreachable; nothing was started. Retry after `Retry-After` seconds. */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": {
                            message: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{id}/runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A run: each measured step with its scores, metrics, findings and screenshot, or the step it failed at.
         * @description Screenshot URLs are signed for the owner and work for 24 hours, like a private scan's images. `failure.step` names the failing step (a measured step by its name, an action by what it does).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The flow id from GET /flows. */
                    id: string;
                    /** @description The run id from GET /flows/{id}/runs. */
                    run_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The run. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": {
                         *         "id": "example",
                         *         "flow_id": "example",
                         *         "status": "queued",
                         *         "trigger": "api",
                         *         "region": "eu-central",
                         *         "requested_at": "2026-11-24T09:30:00Z",
                         *         "started_at": "2026-11-24T09:30:00Z",
                         *         "finished_at": "2026-11-24T09:30:00Z",
                         *         "lighthouse_version": "example",
                         *         "chromium_version": "example",
                         *         "steps": [
                         *           {
                         *             "index": 1,
                         *             "mode": "navigation",
                         *             "name": "Example",
                         *             "url": "https://www.example.com/",
                         *             "scores": {
                         *               "performance": 1,
                         *               "accessibility": 1,
                         *               "best_practices": 1,
                         *               "seo": 1
                         *             },
                         *             "metrics": {
                         *               "lcp_ms": 1850,
                         *               "fcp_ms": 1850,
                         *               "tbt_ms": 1850,
                         *               "cls": 0.05,
                         *               "speed_index_ms": 1850,
                         *               "ttfb_ms": 1850,
                         *               "inp_ms": 1850
                         *             },
                         *             "findings": [
                         *               {
                         *                 "id": "example",
                         *                 "title": "example",
                         *                 "score": 1.5,
                         *                 "display_value": "example",
                         *                 "items": [
                         *                   {}
                         *                 ]
                         *               }
                         *             ],
                         *             "screenshot_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp"
                         *           }
                         *         ],
                         *         "failure": {
                         *           "step_index": 1,
                         *           "step_type": "example",
                         *           "step": "example",
                         *           "code": "selector_not_found",
                         *           "message": "example",
                         *           "screenshot_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp"
                         *         }
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description The run id. */
                                id: string;
                                flow_id: string;
                                /** @enum {unknown} */
                                status: "queued" | "running" | "finished" | "failed";
                                /**
                                 * @description What started the run: the API, the web area, or the flow's daily schedule.
                                 * @enum {unknown}
                                 */
                                trigger: "api" | "web" | "schedule";
                                region: string;
                                /** Format: date-time */
                                requested_at: string;
                                started_at: string | null;
                                finished_at: string | null;
                                lighthouse_version: string | null;
                                chromium_version: string | null;
                                /** @description The measured steps, in order (empty until the run ends). */
                                steps: {
                                    /** @description The step's position in the flow's steps. */
                                    index: number;
                                    /** @enum {unknown} */
                                    mode: "navigation" | "timespan" | "snapshot";
                                    name: string;
                                    url: string;
                                    scores: {
                                        performance: number | null;
                                        accessibility: number | null;
                                        best_practices: number | null;
                                        seo: number | null;
                                    };
                                    metrics: {
                                        lcp_ms?: number | null;
                                        fcp_ms?: number | null;
                                        tbt_ms?: number | null;
                                        cls?: number | null;
                                        speed_index_ms?: number | null;
                                        ttfb_ms?: number | null;
                                        inp_ms?: number | null;
                                    };
                                    findings: {
                                        id: string;
                                        title: string;
                                        score: number | null;
                                        display_value: string | null;
                                        items: Record<string, never>[];
                                    }[];
                                    screenshot_url: string | null;
                                }[];
                                failure: {
                                    step_index: number | null;
                                    step_type: string | null;
                                    /** @description The failing step in words: its name, or what it does. */
                                    step: string;
                                    /** @enum {unknown} */
                                    code: "selector_not_found" | "navigation_failed" | "blocked_address" | "secret_origin" | "timeout" | "step_error" | "run_error" | "not_started";
                                    message: string;
                                    screenshot_url: string | null;
                                } | null;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Each measured step's metrics and scores over the flow's finished runs of the last `days` days.
         * @description One series per measured step, known by its index, mode and name together: a step renamed, moved or changed to another mode starts a new series (the old one keeps its runs). Points are oldest first (newest last), one per finished run; failed runs are left out. The series are ordered by step index.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Runs finished in this many days up to now. */
                    days?: number;
                };
                header?: never;
                path: {
                    /** @description The flow id from GET /flows. */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The step series. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "data": [
                         *         {
                         *           "index": 1,
                         *           "mode": "navigation",
                         *           "name": "Example",
                         *           "points": [
                         *             {
                         *               "run_id": "example",
                         *               "at": "2026-11-24T09:30:00Z",
                         *               "trigger": "api",
                         *               "url": "https://www.example.com/",
                         *               "metrics": {
                         *                 "lcp_ms": 1850,
                         *                 "fcp_ms": 1850,
                         *                 "tbt_ms": 1850,
                         *                 "cls": 0.05,
                         *                 "speed_index_ms": 1850,
                         *                 "ttfb_ms": 1850,
                         *                 "inp_ms": 1850
                         *               },
                         *               "scores": {
                         *                 "performance": 1,
                         *                 "accessibility": 1,
                         *                 "best_practices": 1,
                         *                 "seo": 1
                         *               }
                         *             }
                         *           ]
                         *         }
                         *       ],
                         *       "meta": {
                         *         "days": 1
                         *       }
                         *     }
                         */
                        "application/json": {
                            data: {
                                /** @description The step's position in the flow's steps when it was measured. */
                                index: number;
                                /** @enum {unknown} */
                                mode: "navigation" | "timespan" | "snapshot";
                                name: string;
                                /** @description One per finished run that measured this step, oldest first (newest last). */
                                points: {
                                    run_id: string;
                                    /**
                                     * Format: date-time
                                     * @description When the run finished.
                                     */
                                    at: string;
                                    /**
                                     * @description What started the run: the API, the web area, or the flow's daily schedule.
                                     * @enum {unknown}
                                     */
                                    trigger: "api" | "web" | "schedule";
                                    /** @description The page when the step ended. */
                                    url: string;
                                    metrics: {
                                        lcp_ms?: number | null;
                                        fcp_ms?: number | null;
                                        tbt_ms?: number | null;
                                        cls?: number | null;
                                        speed_index_ms?: number | null;
                                        ttfb_ms?: number | null;
                                        inp_ms?: number | null;
                                    };
                                    scores: {
                                        performance: number | null;
                                        accessibility: number | null;
                                        best_practices: number | null;
                                        seo: number | null;
                                    };
                                }[];
                            }[];
                            meta?: {
                                days: number;
                            };
                        };
                    };
                };
                /** @description No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description The plan does not include this (`required_plan` names the cheapest plan that does). */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "required_plan": "starter"
                         *     }
                         */
                        "application/json": components["schemas"]["PlanError"];
                    };
                };
                /** @description Unknown id, or a resource of another user. */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["Message"];
                    };
                };
                /** @description Validation error. */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "errors": {}
                         *     }
                         */
                        "application/json": components["schemas"]["ValidationError"];
                    };
                };
                /** @description Daily API limit reached; resets at midnight UTC. */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "error": "example",
                         *       "limit": 3,
                         *       "reset_at": "2026-11-24T09:30:00Z"
                         *     }
                         */
                        "application/json": components["schemas"]["DailyLimitError"];
                    };
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document. Public; not counted against the daily limit. */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The document. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Internal error; the body carries only a request id that the logs carry too. */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "message": "example",
                         *       "request_id": "example"
                         *     }
                         */
                        "application/json": components["schemas"]["ServerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "alert.triggered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * alert.triggered
         * @description A score alert of a monitored target is raised (critical or warning). POSTed to the URL of the notification settings (Pro plan and up) when the event is switched on there, with the configured authentication header. A non-2xx answer, a timeout (15 s) or a connection error is retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); Retry-After on 429/503 is honoured up to 10 h; 410 disables the endpoint; redirects are not followed. Deliveries may be duplicated and arrive out of order: drop duplicates by webhook-id.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The delivery id (msg_…), the same on every retry and resend. */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was signed. */
                    "webhook-timestamp": string;
                    /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the whsec_ secret after the prefix; two space-separated signatures for 24 hours after a rotation. */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "event": "alert.triggered",
                     *       "alert_id": 42,
                     *       "type": "example",
                     *       "severity": "critical",
                     *       "title": "example",
                     *       "message": "example",
                     *       "target_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                     *       "host": "www.example.com",
                     *       "region": "eu-central",
                     *       "scan_public_id": "example",
                     *       "created_at": "2026-11-24T09:30:00Z",
                     *       "budget": {
                     *         "metric": "lcp_ms",
                     *         "form_factor": "desktop",
                     *         "value": 1.5,
                     *         "budget": 1.5,
                     *         "unit": "ms",
                     *         "severity": "critical",
                     *         "step": {
                     *           "index": 1,
                     *           "name": "Example",
                     *           "mode": "navigation"
                     *         }
                     *       },
                     *       "over_budget": [
                     *         {
                     *           "metric": "lcp_ms",
                     *           "form_factor": "desktop",
                     *           "value": 1.5,
                     *           "budget": 1.5,
                     *           "unit": "ms",
                     *           "severity": "critical",
                     *           "step": {
                     *             "index": 1,
                     *             "name": "Example",
                     *             "mode": "navigation"
                     *           }
                     *         }
                     *       ],
                     *       "flow": {
                     *         "id": "example",
                     *         "name": "Example"
                     *       },
                     *       "failed_step": {
                     *         "index": 1,
                     *         "step_type": "example",
                     *         "step": "example",
                     *         "code": "example",
                     *         "message": "example"
                     *       },
                     *       "regression": {
                     *         "metric": "example",
                     *         "form_factor": "desktop",
                     *         "baseline": 1.5,
                     *         "current": 1.5,
                     *         "shift": 1.5,
                     *         "p_value": 1.5,
                     *         "baseline_scans": 1,
                     *         "path": "example",
                     *         "confirmation_scan_id": "example",
                     *         "also": [
                     *           "example"
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        event: "alert.triggered";
                        alert_id: number;
                        type: string;
                        /** @enum {string} */
                        severity: "critical" | "warning";
                        title: string;
                        message: string;
                        /** Format: uri */
                        target_url: string;
                        host: string;
                        region: string;
                        scan_public_id: string;
                        /** Format: date-time */
                        created_at: string;
                        /** @description Extension, metric_over_budget only: the worst broken budget (the one the title names). */
                        budget?: {
                            /** @enum {string} */
                            metric: "lcp_ms" | "fcp_ms" | "tbt_ms" | "cls" | "ttfb_ms" | "inp_ms" | "overall" | "speed" | "images" | "caching" | "technical" | "wordpress" | "performance" | "accessibility" | "best_practices" | "seo";
                            form_factor: ("desktop" | "mobile") | null;
                            value: number;
                            budget: number;
                            /** @enum {string} */
                            unit: "ms" | "unitless" | "points";
                            /** @enum {string} */
                            severity: "critical" | "warning";
                            /** @description Extension, a flow's budget only: the step broken (its index in the flow's steps). */
                            step?: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                mode: "navigation" | "timespan" | "snapshot";
                            };
                        };
                        /** @description Extension, metric_over_budget only: every broken budget, worst first. */
                        over_budget?: {
                            /** @enum {string} */
                            metric: "lcp_ms" | "fcp_ms" | "tbt_ms" | "cls" | "ttfb_ms" | "inp_ms" | "overall" | "speed" | "images" | "caching" | "technical" | "wordpress" | "performance" | "accessibility" | "best_practices" | "seo";
                            form_factor: ("desktop" | "mobile") | null;
                            value: number;
                            budget: number;
                            /** @enum {string} */
                            unit: "ms" | "unitless" | "points";
                            /** @enum {string} */
                            severity: "critical" | "warning";
                            /** @description Extension, a flow's budget only: the step broken (its index in the flow's steps). */
                            step?: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                mode: "navigation" | "timespan" | "snapshot";
                            };
                        }[];
                        /** @description Extension, a flow's alert (metric_over_budget, flow_failed): the flow (then `target_url` is its first navigation's URL and `scan_public_id` the flow run's id). */
                        flow?: {
                            id: string;
                            name: string;
                        };
                        /** @description Extension, flow_failed only: where the run stopped (as in the flow.failed event). */
                        failed_step?: {
                            index: number | null;
                            step_type: string | null;
                            step: string;
                            code: string;
                            message: string;
                        };
                        regression?: {
                            metric: string;
                            /** @enum {string|null} */
                            form_factor: "desktop" | "mobile" | null;
                            baseline: number;
                            current: number;
                            shift: number;
                            p_value: number;
                            baseline_scans: number;
                            path: string;
                            confirmation_scan_id?: string;
                            also?: string[];
                        };
                    };
                };
            };
            responses: {
                /** @description Received. Any other answer counts as a failure. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "alert.resolved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * alert.resolved
         * @description A score alert resolves. POSTed to the URL of the notification settings (Pro plan and up) when the event is switched on there, with the configured authentication header. A non-2xx answer, a timeout (15 s) or a connection error is retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); Retry-After on 429/503 is honoured up to 10 h; 410 disables the endpoint; redirects are not followed. Deliveries may be duplicated and arrive out of order: drop duplicates by webhook-id.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The delivery id (msg_…), the same on every retry and resend. */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was signed. */
                    "webhook-timestamp": string;
                    /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the whsec_ secret after the prefix; two space-separated signatures for 24 hours after a rotation. */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "event": "alert.resolved",
                     *       "alert_id": 42,
                     *       "type": "example",
                     *       "severity": "critical",
                     *       "title": "example",
                     *       "message": "example",
                     *       "target_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                     *       "host": "www.example.com",
                     *       "region": "eu-central",
                     *       "scan_public_id": "example",
                     *       "created_at": "2026-11-24T09:30:00Z",
                     *       "resolved_at": "2026-11-24T09:30:00Z",
                     *       "budget": {
                     *         "metric": "lcp_ms",
                     *         "form_factor": "desktop",
                     *         "value": 1.5,
                     *         "budget": 1.5,
                     *         "unit": "ms",
                     *         "severity": "critical",
                     *         "step": {
                     *           "index": 1,
                     *           "name": "Example",
                     *           "mode": "navigation"
                     *         }
                     *       },
                     *       "over_budget": [
                     *         {
                     *           "metric": "lcp_ms",
                     *           "form_factor": "desktop",
                     *           "value": 1.5,
                     *           "budget": 1.5,
                     *           "unit": "ms",
                     *           "severity": "critical",
                     *           "step": {
                     *             "index": 1,
                     *             "name": "Example",
                     *             "mode": "navigation"
                     *           }
                     *         }
                     *       ],
                     *       "flow": {
                     *         "id": "example",
                     *         "name": "Example"
                     *       },
                     *       "failed_step": {
                     *         "index": 1,
                     *         "step_type": "example",
                     *         "step": "example",
                     *         "code": "example",
                     *         "message": "example"
                     *       },
                     *       "regression": {
                     *         "metric": "example",
                     *         "form_factor": "desktop",
                     *         "baseline": 1.5,
                     *         "current": 1.5,
                     *         "shift": 1.5,
                     *         "p_value": 1.5,
                     *         "baseline_scans": 1,
                     *         "path": "example",
                     *         "confirmation_scan_id": "example",
                     *         "also": [
                     *           "example"
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        event: "alert.resolved";
                        alert_id: number;
                        type: string;
                        /** @enum {string} */
                        severity: "critical" | "warning";
                        title: string;
                        message: string;
                        /** Format: uri */
                        target_url: string;
                        host: string;
                        region: string;
                        scan_public_id: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        resolved_at: string;
                        /** @description Extension, metric_over_budget only: the worst broken budget (the one the title names). */
                        budget?: {
                            /** @enum {string} */
                            metric: "lcp_ms" | "fcp_ms" | "tbt_ms" | "cls" | "ttfb_ms" | "inp_ms" | "overall" | "speed" | "images" | "caching" | "technical" | "wordpress" | "performance" | "accessibility" | "best_practices" | "seo";
                            form_factor: ("desktop" | "mobile") | null;
                            value: number;
                            budget: number;
                            /** @enum {string} */
                            unit: "ms" | "unitless" | "points";
                            /** @enum {string} */
                            severity: "critical" | "warning";
                            /** @description Extension, a flow's budget only: the step broken (its index in the flow's steps). */
                            step?: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                mode: "navigation" | "timespan" | "snapshot";
                            };
                        };
                        /** @description Extension, metric_over_budget only: every broken budget, worst first. */
                        over_budget?: {
                            /** @enum {string} */
                            metric: "lcp_ms" | "fcp_ms" | "tbt_ms" | "cls" | "ttfb_ms" | "inp_ms" | "overall" | "speed" | "images" | "caching" | "technical" | "wordpress" | "performance" | "accessibility" | "best_practices" | "seo";
                            form_factor: ("desktop" | "mobile") | null;
                            value: number;
                            budget: number;
                            /** @enum {string} */
                            unit: "ms" | "unitless" | "points";
                            /** @enum {string} */
                            severity: "critical" | "warning";
                            /** @description Extension, a flow's budget only: the step broken (its index in the flow's steps). */
                            step?: {
                                index: number;
                                name: string;
                                /** @enum {string} */
                                mode: "navigation" | "timespan" | "snapshot";
                            };
                        }[];
                        /** @description Extension, a flow's alert (metric_over_budget, flow_failed): the flow (then `target_url` is its first navigation's URL and `scan_public_id` the flow run's id). */
                        flow?: {
                            id: string;
                            name: string;
                        };
                        /** @description Extension, flow_failed only: where the run stopped (as in the flow.failed event). */
                        failed_step?: {
                            index: number | null;
                            step_type: string | null;
                            step: string;
                            code: string;
                            message: string;
                        };
                        regression?: {
                            metric: string;
                            /** @enum {string|null} */
                            form_factor: "desktop" | "mobile" | null;
                            baseline: number;
                            current: number;
                            shift: number;
                            p_value: number;
                            baseline_scans: number;
                            path: string;
                            confirmation_scan_id?: string;
                            also?: string[];
                        };
                    };
                };
            };
            responses: {
                /** @description Received. Any other answer counts as a failure. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "scan.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * scan.completed
         * @description A scan finishes successfully. lcp_ms, cls and tbt_ms are the mobile measurements. POSTed to the URL of the notification settings (Pro plan and up) when the event is switched on there, with the configured authentication header. A non-2xx answer, a timeout (15 s) or a connection error is retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); Retry-After on 429/503 is honoured up to 10 h; 410 disables the endpoint; redirects are not followed. Deliveries may be duplicated and arrive out of order: drop duplicates by webhook-id.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The delivery id (msg_…), the same on every retry and resend. */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was signed. */
                    "webhook-timestamp": string;
                    /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the whsec_ secret after the prefix; two space-separated signatures for 24 hours after a rotation. */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "event": "scan.completed",
                     *       "url": "https://www.example.com/",
                     *       "score": 87,
                     *       "score_speed": 87,
                     *       "score_images": 87,
                     *       "score_caching": 87,
                     *       "score_tech": 87,
                     *       "lcp_ms": 1200,
                     *       "ttfb_ms": 1200,
                     *       "cls": 0.05,
                     *       "tbt_ms": 1200,
                     *       "scan_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                     *       "scanned_at": "2026-11-24T09:30:00Z"
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        event: "scan.completed";
                        /** Format: uri */
                        url: string;
                        score: number;
                        score_speed: number;
                        score_images: number;
                        score_caching: number;
                        score_tech: number;
                        lcp_ms: number;
                        ttfb_ms: number;
                        cls: number;
                        tbt_ms: number;
                        /** Format: uri */
                        scan_url: string;
                        /** Format: date-time */
                        scanned_at: string;
                    };
                };
            };
            responses: {
                /** @description Received. Any other answer counts as a failure. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "rum.alert.triggered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * rum.alert.triggered
         * @description A live-data alert fires (p75 above the threshold). Not sent yet: the live-data alert check is not built. POSTed to the URL of the notification settings (Pro plan and up) when the event is switched on there, with the configured authentication header. A non-2xx answer, a timeout (15 s) or a connection error is retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); Retry-After on 429/503 is honoured up to 10 h; 410 disables the endpoint; redirects are not followed. Deliveries may be duplicated and arrive out of order: drop duplicates by webhook-id.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The delivery id (msg_…), the same on every retry and resend. */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was signed. */
                    "webhook-timestamp": string;
                    /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the whsec_ secret after the prefix; two space-separated signatures for 24 hours after a rotation. */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "event": "rum.alert.triggered",
                     *       "alert_name": "Example",
                     *       "domain": "www.example.com",
                     *       "metric": "example",
                     *       "p75": 1.5,
                     *       "threshold": 1.5,
                     *       "unit": "example",
                     *       "samples": 1,
                     *       "window_minutes": 1,
                     *       "rum_dashboard_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                     *       "triggered_at": "2026-11-24T09:30:00Z"
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        event: "rum.alert.triggered";
                        alert_name: string;
                        domain: string;
                        metric: string;
                        p75: number;
                        threshold: number;
                        unit: string;
                        samples: number;
                        window_minutes: number;
                        /** Format: uri */
                        rum_dashboard_url: string;
                        /** Format: date-time */
                        triggered_at: string;
                    };
                };
            };
            responses: {
                /** @description Received. Any other answer counts as a failure. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "rum.alert.resolved": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * rum.alert.resolved
         * @description A live-data alert resolves (p75 below the threshold). Not sent yet: the live-data alert check is not built. POSTed to the URL of the notification settings (Pro plan and up) when the event is switched on there, with the configured authentication header. A non-2xx answer, a timeout (15 s) or a connection error is retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); Retry-After on 429/503 is honoured up to 10 h; 410 disables the endpoint; redirects are not followed. Deliveries may be duplicated and arrive out of order: drop duplicates by webhook-id.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The delivery id (msg_…), the same on every retry and resend. */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was signed. */
                    "webhook-timestamp": string;
                    /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the whsec_ secret after the prefix; two space-separated signatures for 24 hours after a rotation. */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "event": "rum.alert.resolved",
                     *       "alert_name": "Example",
                     *       "domain": "www.example.com",
                     *       "metric": "example",
                     *       "p75": 1.5,
                     *       "threshold": 1.5,
                     *       "unit": "example",
                     *       "samples": 1,
                     *       "window_minutes": 1,
                     *       "rum_dashboard_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                     *       "resolved_at": "2026-11-24T09:30:00Z"
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        event: "rum.alert.resolved";
                        alert_name: string;
                        domain: string;
                        metric: string;
                        p75: number;
                        threshold: number;
                        unit: string;
                        samples: number;
                        window_minutes: number;
                        /** Format: uri */
                        rum_dashboard_url: string;
                        /** Format: date-time */
                        resolved_at: string;
                    };
                };
            };
            responses: {
                /** @description Received. Any other answer counts as a failure. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "flow.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * flow.completed
         * @description Extension: a user flow run finished (any trigger: API, web area, the flow's daily schedule). `url` is the page of the first navigation step; `flow` names the flow, the run and its trigger; `steps` holds each measured step's metrics and Lighthouse category scores. Not sent as scan.completed, whose scores are this service's categories, which flow steps do not have. POSTed to the URL of the notification settings (Pro plan and up) when the event is switched on there, with the configured authentication header. A non-2xx answer, a timeout (15 s) or a connection error is retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); Retry-After on 429/503 is honoured up to 10 h; 410 disables the endpoint; redirects are not followed. Deliveries may be duplicated and arrive out of order: drop duplicates by webhook-id.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The delivery id (msg_…), the same on every retry and resend. */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was signed. */
                    "webhook-timestamp": string;
                    /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the whsec_ secret after the prefix; two space-separated signatures for 24 hours after a rotation. */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "event": "flow.completed",
                     *       "url": "https://www.example.com/",
                     *       "flow": {
                     *         "id": "example",
                     *         "name": "Example",
                     *         "run_id": "example",
                     *         "trigger": "api"
                     *       },
                     *       "steps": [
                     *         {
                     *           "index": 1,
                     *           "mode": "navigation",
                     *           "name": "Example",
                     *           "url": "https://www.example.com/",
                     *           "metrics": {
                     *             "lcp_ms": 1850,
                     *             "fcp_ms": 1850,
                     *             "tbt_ms": 1850,
                     *             "cls": 0.05,
                     *             "speed_index_ms": 1850,
                     *             "ttfb_ms": 1850,
                     *             "inp_ms": 1850
                     *           },
                     *           "scores": {
                     *             "performance": 1,
                     *             "accessibility": 1,
                     *             "best_practices": 1,
                     *             "seo": 1
                     *           }
                     *         }
                     *       ],
                     *       "run_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                     *       "finished_at": "2026-11-24T09:30:00Z"
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        event: "flow.completed";
                        url: string;
                        flow: {
                            id: string;
                            name: string;
                            run_id: string;
                            /** @enum {string} */
                            trigger: "api" | "web" | "schedule";
                        };
                        steps: {
                            index: number;
                            /** @enum {string} */
                            mode: "navigation" | "timespan" | "snapshot";
                            name: string;
                            url: string;
                            metrics: {
                                lcp_ms?: number | null;
                                fcp_ms?: number | null;
                                tbt_ms?: number | null;
                                cls?: number | null;
                                speed_index_ms?: number | null;
                                ttfb_ms?: number | null;
                                inp_ms?: number | null;
                            };
                            scores: {
                                performance: number | null;
                                accessibility: number | null;
                                best_practices: number | null;
                                seo: number | null;
                            };
                        }[];
                        /** Format: uri */
                        run_url: string;
                        /** Format: date-time */
                        finished_at: string;
                    };
                };
            };
            responses: {
                /** @description Received. Any other answer counts as a failure. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "flow.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * flow.failed
         * @description Extension: a user flow run failed. `failed_step` names where and why (index and step_type null when the run failed outside any step, code `run_error`, or `not_started` for a run that never ran); `steps` holds the steps measured before it; `url` is where the flow starts. POSTed to the URL of the notification settings (Pro plan and up) when the event is switched on there, with the configured authentication header. A non-2xx answer, a timeout (15 s) or a connection error is retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); Retry-After on 429/503 is honoured up to 10 h; 410 disables the endpoint; redirects are not followed. Deliveries may be duplicated and arrive out of order: drop duplicates by webhook-id.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The delivery id (msg_…), the same on every retry and resend. */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was signed. */
                    "webhook-timestamp": string;
                    /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the whsec_ secret after the prefix; two space-separated signatures for 24 hours after a rotation. */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "event": "flow.failed",
                     *       "url": "https://www.example.com/",
                     *       "flow": {
                     *         "id": "example",
                     *         "name": "Example",
                     *         "run_id": "example",
                     *         "trigger": "api"
                     *       },
                     *       "steps": [
                     *         {
                     *           "index": 1,
                     *           "mode": "navigation",
                     *           "name": "Example",
                     *           "url": "https://www.example.com/",
                     *           "metrics": {
                     *             "lcp_ms": 1850,
                     *             "fcp_ms": 1850,
                     *             "tbt_ms": 1850,
                     *             "cls": 0.05,
                     *             "speed_index_ms": 1850,
                     *             "ttfb_ms": 1850,
                     *             "inp_ms": 1850
                     *           },
                     *           "scores": {
                     *             "performance": 1,
                     *             "accessibility": 1,
                     *             "best_practices": 1,
                     *             "seo": 1
                     *           }
                     *         }
                     *       ],
                     *       "run_url": "https://webperf.example/assets/01jz8q3m5kx7h2v9w4n6p0r1st/desktop.webp",
                     *       "finished_at": "2026-11-24T09:30:00Z",
                     *       "failed_step": {
                     *         "index": 1,
                     *         "step_type": "example",
                     *         "step": "example",
                     *         "code": "example",
                     *         "message": "example"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        event: "flow.failed";
                        url: string;
                        flow: {
                            id: string;
                            name: string;
                            run_id: string;
                            /** @enum {string} */
                            trigger: "api" | "web" | "schedule";
                        };
                        steps: {
                            index: number;
                            /** @enum {string} */
                            mode: "navigation" | "timespan" | "snapshot";
                            name: string;
                            url: string;
                            metrics: {
                                lcp_ms?: number | null;
                                fcp_ms?: number | null;
                                tbt_ms?: number | null;
                                cls?: number | null;
                                speed_index_ms?: number | null;
                                ttfb_ms?: number | null;
                                inp_ms?: number | null;
                            };
                            scores: {
                                performance: number | null;
                                accessibility: number | null;
                                best_practices: number | null;
                                seo: number | null;
                            };
                        }[];
                        /** Format: uri */
                        run_url: string;
                        /** Format: date-time */
                        finished_at: string;
                        failed_step: {
                            index: number | null;
                            step_type: string | null;
                            step: string;
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Received. Any other answer counts as a failure. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    ping: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * ping
         * @description The test event of the notification settings page. POSTed to the URL of the notification settings (Pro plan and up) when the event is switched on there, with the configured authentication header. A non-2xx answer, a timeout (15 s) or a connection error is retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); Retry-After on 429/503 is honoured up to 10 h; 410 disables the endpoint; redirects are not followed. Deliveries may be duplicated and arrive out of order: drop duplicates by webhook-id.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The delivery id (msg_…), the same on every retry and resend. */
                    "webhook-id": string;
                    /** @description Unix seconds when this attempt was signed. */
                    "webhook-timestamp": string;
                    /** @description `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the whsec_ secret after the prefix; two space-separated signatures for 24 hours after a rotation. */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "event": "ping",
                     *       "message": "example",
                     *       "sent_at": "2026-11-24T09:30:00Z"
                     *     }
                     */
                    "application/json": {
                        /** @constant */
                        event: "ping";
                        message: string;
                        /** Format: date-time */
                        sent_at: string;
                    };
                };
            };
            responses: {
                /** @description Received. Any other answer counts as a failure. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Message: {
            message: string;
        };
        ValidationError: {
            message: string;
            errors: {
                [key: string]: string[];
            };
        };
        PlanError: {
            message: string;
            /** @enum {string} */
            required_plan?: "starter" | "pro" | "agency";
        };
        DailyLimitError: {
            error: string;
            limit: number;
            /** Format: date-time */
            reset_at: string;
        };
        ServerError: {
            message: string;
            request_id: string;
        };
        Target: {
            id: number;
            host: string;
            /** Format: uri */
            url: string;
            /** @enum {unknown} */
            schedule: "daily";
            is_active: boolean;
            /** @description When the schedule last started a scan; null before the first. */
            last_dispatched_at: string | null;
            /** @description Extension: where the target is scanned. */
            region: string;
            /** @description Extension: alert thresholds. */
            thresholds: {
                /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                overall: {
                    warning: number;
                    critical: number;
                };
                /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                speed?: {
                    warning: number;
                    critical: number;
                };
                /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                images?: {
                    warning: number;
                    critical: number;
                };
                /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                caching?: {
                    warning: number;
                    critical: number;
                };
                /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                technical?: {
                    warning: number;
                    critical: number;
                };
                /** @description An alert is raised below `warning` (severity warning) or below `critical` (severity critical); `critical` may not be greater than `warning`. */
                wordpress?: {
                    warning: number;
                    critical: number;
                };
            };
            budgets: components["schemas"]["Budgets"];
            /**
             * Format: date-time
             * @description Extension.
             */
            created_at: string;
            /** @description Extension: when the target's daily schedule starts its next scan (a fixed time of day per target, UTC); null while the target is paused. */
            next_scan_at: string | null;
        };
        /** @description Extension: performance budgets. A metric above its budget or a score below its minimum raises a `metric_over_budget` alert (warning; critical at 50 % or more past the budget); it resolves when every budget holds again with a margin (metrics at most 90 % of their budget, scores at least 3 points above their minimum). Default `{}`: no budgets. */
        Budgets: {
            /** @description The most each mobile metric of the median run may be; any subset. */
            mobile?: {
                /** @description Largest contentful paint, ms. */
                lcp_ms?: number;
                /** @description First contentful paint, ms. */
                fcp_ms?: number;
                /** @description Total blocking time, ms. */
                tbt_ms?: number;
                /** @description Cumulative layout shift (unitless). */
                cls?: number;
                /** @description Time to first byte, ms. */
                ttfb_ms?: number;
            };
            /** @description The most each desktop metric of the median run may be; any subset. */
            desktop?: {
                /** @description Largest contentful paint, ms. */
                lcp_ms?: number;
                /** @description First contentful paint, ms. */
                fcp_ms?: number;
                /** @description Total blocking time, ms. */
                tbt_ms?: number;
                /** @description Cumulative layout shift (unitless). */
                cls?: number;
                /** @description Time to first byte, ms. */
                ttfb_ms?: number;
            };
            /** @description The least each score may be (0–100); any subset. */
            scores?: {
                overall?: number;
                speed?: number;
                images?: number;
                caching?: number;
                technical?: number;
                wordpress?: number;
            };
            /** @description The least each of Lighthouse's own category scores (result.lighthouse.categories, 0–100) may be, per form factor; any subset. A breach names the category as `metric` with its `form_factor`. */
            lighthouse?: {
                mobile?: {
                    performance?: number;
                    accessibility?: number;
                    best_practices?: number;
                    seo?: number;
                };
                desktop?: {
                    performance?: number;
                    accessibility?: number;
                    best_practices?: number;
                    seo?: number;
                };
            };
        };
        ScanMetricChange: {
            /** @description The previous scan’s value, as its result reports it. */
            before: number;
            /** @description This scan’s value. */
            after: number;
            /** @description The change the verdict judged, in the metric’s unit: the Hodges-Lehmann shift of the runs (rank test) or the difference of the medians (noise band). Its sign is the verdict’s direction; it can differ from `after − before`, which are each scan’s median run. */
            change: number;
            /** @enum {unknown} */
            verdict: "better" | "worse" | "no_significant_change";
            /** @description How many values each side contributed: its runs, or 1. */
            values: {
                before: number;
                after: number;
            };
            /** @constant */
            rule: "rank_test";
            /** @description One-sided, in the direction of the shift. */
            p: number;
            /** @description The smallest shift that counts as a change. */
            floor: number;
        } | {
            /** @description The previous scan’s value, as its result reports it. */
            before: number;
            /** @description This scan’s value. */
            after: number;
            /** @description The change the verdict judged, in the metric’s unit: the Hodges-Lehmann shift of the runs (rank test) or the difference of the medians (noise band). Its sign is the verdict’s direction; it can differ from `after − before`, which are each scan’s median run. */
            change: number;
            /** @enum {unknown} */
            verdict: "better" | "worse" | "no_significant_change";
            /** @description How many values each side contributed: its runs, or 1. */
            values: {
                before: number;
                after: number;
            };
            /** @constant */
            rule: "noise_band";
            /** @description A difference up to this is noise. */
            band: number;
            /** @description The scans of this URL the band was learned from; null for the metric’s default band. */
            band_scans: number | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
