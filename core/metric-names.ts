/**
 * The operator metrics' names and label sets, in one place: the processes register them (prom-client), the
 * Prometheus alert rules (ops/prometheus/) query them. Label values always come from fixed sets (route
 * templates, regions from config, failure codes, outcomes), never from user input.
 */
export const METRICS = {
  // every HTTP process (api; ingest has its own rum_ingest_* set)
  httpRequests: { name: 'webperf_http_requests_total', labels: ['service', 'route', 'method', 'status'] },
  httpDuration: { name: 'webperf_http_request_duration_seconds', labels: ['service', 'route', 'method'] },
  dailyLimitRefusals: { name: 'webperf_api_daily_limit_refusals_total', labels: ['plan'] },
  ready: { name: 'webperf_ready', labels: ['service'] },
  // scans (worker)
  scansStarted: { name: 'webperf_scans_started_total', labels: ['region'] },
  scansFinished: { name: 'webperf_scans_finished_total', labels: ['region', 'outcome', 'failure_code'] },
  scanDuration: { name: 'webperf_scan_duration_seconds', labels: ['region'] },
  benchmarkIndex: { name: 'webperf_lighthouse_benchmark_index', labels: ['region'] },
  scanBacklog: { name: 'webperf_scan_queue_backlog', labels: ['region'] },
  scanOldestWaiting: { name: 'webperf_scan_oldest_waiting_seconds', labels: ['region'] },
  scanPollers: { name: 'webperf_scan_queue_pollers', labels: ['region'] },
  // schedules, webhooks, e-mail, live-data alerts (worker)
  schedulesDispatched: { name: 'webperf_target_runs_dispatched_total', labels: [] },
  schedulesSkipped: { name: 'webperf_target_runs_skipped_total', labels: ['reason'] },
  webhookDeliveries: { name: 'webperf_webhook_deliveries_total', labels: ['outcome'] },
  webhookAttempts: { name: 'webperf_webhook_attempts_total', labels: ['result'] },
  webhookBacklog: { name: 'webperf_webhook_backlog', labels: [] },
  webhookEndpointsDisabled: { name: 'webperf_webhook_endpoints_disabled_total', labels: [] },
  emails: { name: 'webperf_emails_total', labels: ['kind', 'outcome'] },
  rumAlertCheckDuration: { name: 'webperf_rum_alert_check_duration_seconds', labels: [] },
} as const;
