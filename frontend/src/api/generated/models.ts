// Generated from the Go types by `go run -tags bindings ./app/bindgen frontend/src/api/generated`.
// Do not edit: change the Go type and regenerate (app/bindgen's test fails until then).
export namespace agent {
	
	export interface Container {
	    role?: string;
	    name?: string;
	    test_id?: string;
	    css?: string;
	}
	export interface FrameRef {
	    title?: string;
	    name?: string;
	    css?: string;
	}
	export interface Target {
	    role?: string;
	    name?: string;
	    label?: string;
	    placeholder?: string;
	    test_id?: string;
	    text?: string;
	    css?: string;
	    alias?: string;
	    frame: FrameRef[];
	    within: Container;
	}
	export interface Action {
	    id: string;
	    description: string;
	    kind: string;
	    target: Target;
	    to?: Target;
	    value?: string;
	    secret?: boolean;
	    optional?: boolean;
	    setup?: boolean;
	    condition?: string;
	    timeout_ms?: number;
	}
	export interface Answer {
	    condition: string;
	    kind: string;
	    raw?: number[];
	    error?: string;
	}
	export interface RefusedAnswer {
	    by: string;
	    at_ms: number;
	    why: string;
	}
	export interface Comparison {
	    field: string;
	    asked: string;
	    now: string;
	    differs?: string;
	}
	export interface Box {
	    x: number;
	    y: number;
	    width: number;
	    height: number;
	    viewport_width: number;
	    viewport_height: number;
	}
	export interface Fact {
	    id: string;
	    value: string;
	}
	export interface Field {
	    role: string;
	    name: string;
	    value: string;
	    invalid?: boolean;
	}
	export interface ApprovalRequest {
	    step: number;
	    action: string;
	    target: string;
	    recipient?: string;
	    amount?: string;
	    data: Field[];
	    principal?: string;
	    facts?: Fact[];
	    permanence: string;
	    url: string;
	    screenshot?: string;
	    target_box?: Box;
	    hash: string;
	    again?: string;
	    effect?: string;
	    compared?: Comparison[];
	    why?: string;
	}
	export interface Approval {
	    request: ApprovalRequest;
	    answer: string;
	    note?: string;
	    asked_ms: number;
	    answered_ms: number;
	    void?: boolean;
	    commit_hash?: string;
	    by?: string;
	    refused?: RefusedAnswer[];
	}
	
	export interface Mutation {
	    method: string;
	    path: string;
	    description: string;
	    amount?: string;
	    principal?: string;
	    recipient?: string;
	}
	export interface ApprovalSpec {
	    limit_ms: number;
	    for?: string[];
	    methods?: string[];
	    reauthorize?: boolean;
	    mutations?: Mutation[];
	}
	export interface Traffic {
	    requests?: Request[];
	    console?: ConsoleMessage[];
	    page_errors?: PageError[];
	    dropped: Dropped;
	}
	export interface Claim {
	    done: boolean;
	    answer?: string;
	    source: string;
	    words?: string;
	}
	export interface Condition {
	    id: string;
	    label: string;
	    done: boolean;
	    evidence: string;
	    unconfirmed?: string;
	    check?: string;
	}
	export interface Gate {
	    done: boolean;
	    conditions: Condition[];
	}
	export interface Signal {
	    id: string;
	    label: string;
	    done: boolean;
	    evidence: string;
	    unconfirmed?: string;
	    check?: string;
	}
	export interface Verdicts {
	    truth: Signal;
	    signals: Signal[];
	    gate: Gate;
	}
	export interface Event {
	    seq: number;
	    at_ms: number;
	    type: string;
	    data?: Record<string, string>;
	}
	export interface Candidate {
	    role: string;
	    name: string;
	    similarity: number;
	    box: Box;
	}
	export interface Reconciliation {
	    op_id: string;
	    query: string;
	    answer: string;
	    found: number;
	    outcome: string;
	    retry?: Action;
	}
	export interface Dropped {
	    requests?: number;
	    console?: number;
	    errors?: number;
	}
	export interface PageError {
	    message: string;
	    stack?: string;
	    at_ms: number;
	}
	export interface ConsoleMessage {
	    level: string;
	    text: string;
	    location?: string;
	    at_ms: number;
	}
	export interface Body {
	    mime_type?: string;
	    text: string;
	    truncated?: boolean;
	}
	export interface Header {
	    name: string;
	    value: string;
	}
	export interface Request {
	    method: string;
	    url: string;
	    resource_type: string;
	    status?: number;
	    status_text?: string;
	    start_ms: number;
	    duration_ms: number;
	    size: number;
	    failure?: string;
	    refused?: boolean;
	    request_headers?: Header[];
	    response_headers?: Header[];
	    request_body?: Body;
	    response_body?: Body;
	}
	export interface Transfer {
	    kind: string;
	    offered: string;
	    saved: string;
	    bytes: number;
	}
	export interface Focus {
	    role: string;
	    name: string;
	    submits?: boolean;
	    submitter?: string;
	}
	export interface PendingDialog {
	    type: string;
	    message: string;
	    default?: string;
	}
	export interface Size {
	    width: number;
	    height: number;
	}
	export interface FrameView {
	    path: FrameRef[];
	    url: string;
	    text?: string;
	    pairs?: RoleName[];
	    fields?: Field[];
	}
	export interface Region {
	    kind: string;
	    what: string;
	    x: number;
	    y: number;
	    w: number;
	    h: number;
	}
	export interface RoleName {
	    role: string;
	    name: string;
	}
	export interface Sample {
	    seq?: number;
	    at_ms: number;
	    url: string;
	    title?: string;
	    dialog_open: boolean;
	    fields: Field[];
	    notice: string;
	    alert: string;
	    rows: string[][];
	    form_present: boolean;
	    form_valid: boolean;
	    pairs: RoleName[];
	    text?: string;
	    unreadable?: Region[];
	    principal?: string;
	    facts?: Fact[];
	    version?: string;
	    frames?: FrameView[];
	    notices?: Fact[];
	    viewport?: Size;
	    tab?: number;
	    js_dialog?: PendingDialog;
	    screenshot?: string;
	    screenshot_size?: Size;
	    pixel_ratio?: number;
	    dom?: string;
	    dom_skipped?: string;
	    focus?: Focus;
	}
	export interface Review {
	    reviewer: string;
	    verdict: string;
	    reason: string;
	    in_tokens?: number;
	    out_tokens?: number;
	    cost_usd?: number;
	    kept?: boolean;
	}
	export interface Fingerprint {
	    route: string;
	    principal?: string;
	    target?: string;
	    relevant?: string;
	    version?: string;
	    dialog?: boolean;
	    form: string;
	    at_ms: number;
	    hash: string;
	}
	export interface Decision {
	    class: string;
	    admission: string;
	    reason: string;
	    fingerprint?: string;
	    observed?: Fingerprint;
	    risk?: string;
	    contract?: string;
	    why?: string;
	    key?: string;
	    continue?: boolean;
	    review?: Review;
	    ask_user?: boolean;
	    refused_by_page?: string;
	}
	export interface Compaction {
	    messages: number;
	    summary: string;
	    tokens_before: number;
	    tokens_after: number;
	}
	export interface ModelCall {
	    id: string;
	    name: string;
	    arguments: string;
	    outcome: string;
	    result?: string;
	}
	export interface ModelTurn {
	    step: number;
	    model: string;
	    messages: number;
	    tokens: number;
	    grounded_seq?: number;
	    grounded_at_ms: number;
	    text?: string;
	    calls?: ModelCall[];
	    in_tokens: number;
	    out_tokens: number;
	    latency_ms: number;
	    cost_usd: number;
	    retries?: number;
	    notes?: string[];
	    compaction?: Compaction;
	    error?: string;
	}
	export interface Step {
	    index: number;
	    action: Action;
	    provenance?: string;
	    reason?: string;
	    evidence?: string;
	    model_turns?: ModelTurn[];
	    decision: Decision;
	    resolved?: string;
	    before: Sample;
	    after: Sample;
	    distance: number;
	    start_ms: number;
	    duration_ms: number;
	    blocked?: string[];
	    transfers?: Transfer[];
	    requests?: Request[];
	    console?: ConsoleMessage[];
	    page_errors?: PageError[];
	    dropped: Dropped;
	    error?: string;
	    output?: string;
	    guidance?: string;
	    approvals?: Approval[];
	    reconciliation?: Reconciliation;
	    target_box?: Box;
	    candidates?: Candidate[];
	    unresolved?: boolean;
	}
	export interface Budgets {
	    steps?: number;
	    wall_clock_ms?: number;
	    retries?: number;
	    navigations?: number;
	    uploads?: number;
	    downloads?: number;
	    commits?: number;
	    tokens?: number;
	    money_usd?: number;
	}
	export interface ReviewRule {
	    expr: string;
	    reason: string;
	}
	export interface ReviewSpec {
	    policy: string;
	    reviewer: string;
	    rules?: ReviewRule[];
	    on_unavailable?: string;
	}
	export interface Safeguards {
	    review?: ReviewSpec;
	    approval?: ApprovalSpec;
	    scripts?: string;
	}
	export interface Config {
	    wait: string;
	    fixed_wait_ms: number;
	    poll_ms: number;
	    deadline_ms: number;
	    selectors: string;
	    budget: number;
	    retries?: number;
	    safeguards?: Safeguards;
	    budgets?: Budgets;
	}
	export interface NoticePlace {
	    id: string;
	    test_id?: string;
	    css?: string;
	}
	export interface Probe {
	    id?: string;
	    test_id?: string;
	    css?: string;
	    cookie?: string;
	    storage?: string;
	}
	export interface Authority {
	    principal?: Probe;
	    relevant?: Probe[];
	    version?: Probe;
	    freshness_ms?: number;
	}
	export interface Task {
	    name: string;
	    intent: string;
	    start_url: string;
	    origins?: string[];
	    uploads?: string;
	    downloads?: string;
	    authority?: Authority;
	    notices?: NoticePlace[];
	}
	export interface Attempt {
	    attempt: string;
	    title: string;
	    trial?: number;
	    task: Task;
	    config: Config;
	    fault?: string;
	    params?: Record<string, number>;
	    plan: Action[];
	    steps: Step[];
	    model_turns?: ModelTurn[];
	    events: Event[];
	    answers?: Answer[];
	    terminal: string;
	    reason: string;
	    verdicts: Verdicts;
	    // Go type: time
	    started: any;
	    viewport?: Size;
	    evidence?: string;
	    video?: string;
	    trace?: string;
	    browser_log?: string;
	    claim?: Claim;
	    opening?: Traffic;
	}
	export interface AttemptSpec {
	    slug: string;
	    title: string;
	    fault?: string;
	    params?: Record<string, number>;
	    config: Config;
	    plan?: Action[];
	    trial?: number;
	}
	
	
	
	
	
	
	
	
	
	
	export interface ConfigOverride {
	    wait?: string;
	    fixed_wait_ms?: number;
	    poll_ms?: number;
	    deadline_ms?: number;
	    selectors?: string;
	    budget?: number;
	    budgets?: Budgets;
	}
	
	
	
	
	
	
	
	
	
	export interface Frame {
	    index: number;
	    event?: Event;
	    state: any;
	    gate: Gate;
	}
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	
	export interface SignedFile {
	    name: string;
	    sha256: string;
	}
	export interface Signature {
	    status: string;
	    label: string;
	    signer?: string;
	    fingerprint?: string;
	    reason?: string;
	    signed?: SignedFile[];
	}
	export interface Run {
	    id: string;
	    task: string;
	    spec?: number[];
	    // Go type: time
	    created: any;
	    status: string;
	    source: string;
	    budgets?: Budgets;
	    lab_host?: string;
	    suite_run?: string;
	    signature?: Signature;
	    attempts: Attempt[];
	}
	
	
	
	
	
	
	
	export interface StepSummary {
	    index: number;
	    description: string;
	    kind: string;
	    target?: string;
	    value?: string;
	    class: string;
	    admission: string;
	    start_ms: number;
	    duration_ms: number;
	    failed?: boolean;
	    failed_requests?: number;
	    unchanged?: boolean;
	    shot?: string;
	    turns?: number;
	    said_done?: boolean;
	}
	
	
	
	

}

export namespace app {
	
	export interface ApprovalAsk {
	    id: string;
	    run_id: string;
	    slug: string;
	    request: agent.ApprovalRequest;
	    open: boolean;
	    answer?: string;
	}
	export interface AttemptRequest {
	    step: number;
	    method: string;
	    url: string;
	    resource_type: string;
	    status?: number;
	    status_text?: string;
	    start_ms: number;
	    duration_ms: number;
	    size: number;
	    failure?: string;
	    refused?: boolean;
	    request_headers?: agent.Header[];
	    response_headers?: agent.Header[];
	    request_body?: agent.Body;
	    response_body?: agent.Body;
	}
	export interface AttemptRequests {
	    requests: AttemptRequest[];
	    dropped?: number;
	}
	export interface SetupState {
	    state: string;
	    progress: browser.Progress;
	    error?: string;
	    warning?: string;
	}
	export interface BrowserStatus {
	    ready: boolean;
	    driver: boolean;
	    driver_problem?: string;
	    chosen?: browser.Candidate;
	    browser_problem?: string;
	    headless?: browser.Candidate;
	    candidates: browser.Candidate[];
	    setup: SetupState;
	    command: string;
	}
	export interface EndpointHealth {
	    name: string;
	    kind: string;
	    url?: string;
	    connects: boolean;
	    version?: string;
	    error?: string;
	    running: number;
	    check_ms: number;
	    live: boolean;
	}
	export interface RunEvent {
	    run_id: string;
	    kind: string;
	    slug?: string;
	    index?: number;
	    total?: number;
	    step?: agent.Step;
	    // Go type: agent
	    check?: any;
	    events?: agent.Event[];
	    attempt?: agent.Attempt;
	    frame?: string;
	    // Go type: agent
	    live?: any;
	    // Go type: agent
	    media?: any;
	    endpoint?: string;
	    status?: string;
	    waiting?: boolean;
	    message?: string;
	    seq: number;
	}
	export interface GoingRun {
	    id: string;
	    suite_run?: string;
	    elsewhere?: string;
	    planned: string[];
	    events: RunEvent[];
	}
	export interface ImportResult {
	    run_id: string;
	    disagreements: runfile.Disagreement[];
	    signature?: agent.Signature;
	}
	export interface ModelTest {
	    model: string;
	    reply: string;
	    latency_ms: number;
	}
	
	export interface SessionInfo {
	    version: string;
	    transport: string;
	    data_dir: string;
	}
	
	export interface StartRequest {
	    task: string;
	    attempts: string[];
	    config?: agent.ConfigOverride;
	    allow_env?: string[];
	    repeat?: number;
	}
	export interface SuiteCell {
	    run: string;
	    slug: string;
	    trial: number;
	    terminal: string;
	    wrong?: string[];
	}
	export interface SuiteRow {
	    key: string;
	    task: string;
	    attempt: string;
	    title: string;
	    cells: SuiteCell[];
	}
	export interface SuiteRunRef {
	    id: string;
	    task: string;
	    // Go type: time
	    created: any;
	    status: string;
	}
	export interface SuiteReport {
	    id: string;
	    name: string;
	    runs: SuiteRunRef[];
	    trials: number;
	    rows: SuiteRow[];
	    estimates: metrics.Report;
	}
	export interface SuiteTask {
	    task: string;
	    attempts?: string[];
	    allow_env?: string[];
	}
	export interface SuiteRequest {
	    name: string;
	    tasks: SuiteTask[];
	    repeat: number;
	    config?: agent.ConfigOverride;
	}
	
	
	
	export interface TaskInfo {
	    ref: string;
	    file?: string;
	    path?: string;
	    missing?: string;
	    task: agent.Task;
	    plan: agent.Action[];
	    attempts: agent.AttemptSpec[];
	    columns: agent.Verdicts;
	    env?: taskfile.EnvVar[];
	}
	export interface UserSettings {
	    config: agent.ConfigOverride;
	    headed: boolean;
	    browser_path: string;
	    video: boolean;
	    screenshots: boolean;
	    trace: boolean;
	    bodies?: boolean;
	    pixel_ratio?: number;
	    dom_snapshots?: boolean;
	    evidence?: string;
	    parallel?: number;
	    models?: model.ModelConfig[];
	    planner?: string;
	    retention: retention.Policy;
	    harness?: string;
	    allow_paths?: string[];
	    allow_env?: string[];
	    allow_link_local?: boolean;
	    sign_exports?: string;
	}

}

export namespace browser {
	
	export interface Candidate {
	    kind: string;
	    label: string;
	    path: string;
	    found: boolean;
	    note?: string;
	}
	export interface Progress {
	    phase: string;
	    done: number;
	    total: number;
	}

}

export namespace compare {
	
	export interface Call {
	    id: string;
	    done: boolean;
	    unconfirmed?: boolean;
	    wrong?: boolean;
	}
	export interface Check {
	    id: string;
	    label: string;
	}
	export interface Setting {
	    slug: string;
	    name: string;
	    a: string;
	    b: string;
	}
	export interface Side {
	    terminal: string;
	    reason: string;
	    calls: Call[];
	    wrong: number;
	    steps: number;
	    duration_ms: number;
	}
	export interface Row {
	    slug: string;
	    title: string;
	    a?: Side;
	    b?: Side;
	    differs: string[];
	}
	export interface Run {
	    id: string;
	    task: string;
	    // Go type: time
	    created: any;
	    status: string;
	    source: string;
	}
	export interface Comparison {
	    a: Run;
	    b: Run;
	    checks: Check[];
	    rows: Row[];
	    differing: number;
	    settings: Setting[];
	}
	export interface RateRow {
	    attempt: string;
	    a: stats.Proportion;
	    b: stats.Proportion;
	    difference: number;
	    interval: stats.Interval;
	    test: string;
	    p: number;
	    only_a?: number;
	    only_b?: number;
	    significant: boolean;
	    verdict: string;
	}
	export interface RateComparison {
	    a: Run;
	    b: Run;
	    rows: RateRow[];
	    overall: RateRow;
	    unmatched?: string[];
	}
	
	
	
	

}

export namespace ledger {
	
	export interface Entry {
	    step: number;
	    intent: string;
	    action: string;
	    target: string;
	    principal: string;
	    observed_ms: number;
	    fingerprint: string;
	    class: string;
	    risk: string;
	    decision: string;
	    reason: string;
	    result: string;
	    verification: string;
	}

}

export namespace metrics {
	
	export interface AttemptRef {
	    run: string;
	    attempt: string;
	}
	export interface Rate {
	    k: number;
	    n: number;
	    interval: stats.Interval;
	}
	export interface Confusion {
	    true_done: AttemptRef[];
	    false_done: AttemptRef[];
	    false_not_done: AttemptRef[];
	    true_not_done: AttemptRef[];
	    unconfirmed: AttemptRef[];
	}
	export interface Calibrated {
	    signal: string;
	    label: string;
	    against: string;
	    confusion: Confusion;
	    false_done: Rate;
	    precision: Rate;
	    recall: Rate;
	    gate_stands_in?: number;
	    pooled?: string[];
	}
	export interface CalibrationSlice {
	    key: string;
	    signals: Calibrated[];
	}
	export interface Calibration {
	    by: string;
	    slices: CalibrationSlice[];
	    overall: CalibrationSlice;
	}
	
	
	export interface Latency {
	    plan_ms: number;
	    act_ms: number;
	    verify_ms: number;
	}
	
	export interface Slice {
	    key: string;
	    runs: number;
	    attempts: number;
	    completed: number;
	    unconfirmed: number;
	    intended_success: number;
	    wrong_target_rate: number;
	    revalidation_stop_rate: number;
	    approvals: number;
	    confirmation_burden: number;
	    recovery_loops: number;
	    side_effect_leaks: number;
	    duplicate_side_effects: number;
	    policy_denials: number;
	    injection_stops: number;
	    latency: Latency;
	    success_interval: stats.Interval;
	    pass_at_k: number;
	    pass_hat_k: number;
	    median_steps: number;
	    median_wall_ms: number;
	    tokens_per_success: number;
	    cost_per_success_usd: number;
	    flaky?: string[];
	}
	export interface Report {
	    by: string;
	    slices: Slice[];
	    overall: Slice;
	    k: number;
	}

}

export namespace model {
	
	export interface ModelConfig {
	    provider: string;
	    base_url?: string;
	    model: string;
	    api_key_env?: string;
	    api_key_keyring?: string;
	    price_in_per_mtok?: number;
	    price_out_per_mtok?: number;
	}

}

export namespace retention {
	
	export interface Policy {
	    keep_last?: number;
	    keep_days?: number;
	}

}

export namespace runfile {
	
	export interface Disagreement {
	    attempt: string;
	    verdict: string;
	    recorded: string;
	    recomputed: string;
	}
	export interface AttemptReplay {
	    frames: agent.Frame[];
	    recorded: agent.Verdicts;
	    recomputed: agent.Verdicts;
	    disagreements: Disagreement[];
	}

}

export namespace stats {
	
	export interface Interval {
	    lo: number;
	    hi: number;
	}
	export interface Proportion {
	    k: number;
	    n: number;
	}

}

export namespace store {
	
	export interface AttemptHeader {
	    attempt: string;
	    title: string;
	    trial?: number;
	    task: agent.Task;
	    config: agent.Config;
	    fault?: string;
	    params?: Record<string, number>;
	    plan: agent.Action[];
	    model_turns?: agent.ModelTurn[];
	    events: agent.Event[];
	    answers?: agent.Answer[];
	    terminal: string;
	    reason: string;
	    verdicts: agent.Verdicts;
	    // Go type: time
	    started: any;
	    viewport?: agent.Size;
	    evidence?: string;
	    video?: string;
	    trace?: string;
	    browser_log?: string;
	    claim?: agent.Claim;
	    opening?: agent.Traffic;
	    steps: agent.StepSummary[];
	    step_count: number;
	    turns?: number;
	    said_done?: boolean;
	}
	export interface RunHeader {
	    id: string;
	    task: string;
	    spec?: number[];
	    // Go type: time
	    created: any;
	    status: string;
	    source: string;
	    budgets?: agent.Budgets;
	    lab_host?: string;
	    suite_run?: string;
	    signature?: agent.Signature;
	    attempts: AttemptHeader[];
	}
	export interface Summary {
	    id: string;
	    task: string;
	    // Go type: time
	    created: any;
	    // Go type: time
	    added: any;
	    status: string;
	    source: string;
	    attempts: number;
	    completed: number;
	    wrong: number;
	    lab_host?: string;
	    suite_run?: string;
	    signature?: agent.Signature;
	}

}

export namespace taskfile {
	
	export interface EnvVar {
	    name: string;
	    fields: string[];
	    at_load?: boolean;
	    secret?: boolean;
	    allowed?: boolean;
	}

}

