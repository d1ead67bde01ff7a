export namespace bind {
	
	export interface Capture {
	
	}
	export interface Imported {
	    run: number;
	    session: sessions.Session;
	}
	export interface Requests {
	
	}
	export interface RequestsView {
	    rows: reqhook.Row[];
	    usage: history.ModelUsage[];
	    exec_hooks: history.ExecHookMetrics[];
	}
	export interface SavedScenario {
	    path: string;
	    notes: string[];
	}
	export interface SearchPage {
	    results: search.Results;
	    status: search.Progress;
	}

}

export namespace calibrate {
	
	export interface Progress {
	    run: number;
	    runs: number;
	    probe: string;
	    requests: number;
	    message: string;
	}

}

export namespace calibration {
	
	export interface CLI {
	    agent: string;
	    command: string;
	    path: string;
	    version: string;
	    profile: string;
	    calibratable: boolean;
	    error?: string;
	}
	export interface Result {
	    ref: string;
	    file: string;
	    nearest?: string;
	    changes: profile.Change[];
	    duration_ms: number;
	    request_file?: string;
	}
	export interface State {
	    running: boolean;
	    agent?: string;
	    cli?: string;
	    progress: calibrate.Progress;
	    lines: string[];
	    result?: Result;
	    error?: string;
	    cancelled?: boolean;
	}

}

export namespace capture {
	
	export interface AnswerError {
	    status: number;
	    message: string;
	}
	export interface ToolCall {
	    id: string;
	    name: string;
	    arguments: number[];
	}
	export interface Answer {
	    content?: string;
	    tool_calls?: ToolCall[];
	    error?: AnswerError;
	}
	
	export interface CallSummary {
	    n: number;
	    api: string;
	    path: string;
	    status: number;
	    error?: string;
	    messages: number;
	    input_tokens: number;
	    hooks: string[];
	    answer: string;
	    agent?: string;
	}
	export interface Side {
	    kind: string;
	    schema?: number[];
	}
	export interface Message {
	    role: string;
	    content: string;
	    origin: string;
	    hook?: string;
	    tool_calls?: ToolCall[];
	    tool_call_id?: string;
	    is_error?: boolean;
	    kind?: string;
	    agent_before?: string;
	    agent_after?: string;
	}
	export interface PendingRequest {
	    n: number;
	    api: string;
	    model: string;
	    stream: boolean;
	    messages: Message[];
	    tools: string[];
	    // Go type: Side
	    side?: any;
	}
	export interface SessionOptions {
	    port: number;
	    answers_file: string;
	    manual: boolean;
	    profile: string;
	}
	export interface UpstreamCall {
	    profile: string;
	    host: string;
	    model: string;
	}
	export interface SessionState {
	    running: boolean;
	    base_url?: string;
	    lines: string[];
	    recipes: recipe.Recipe[];
	    answers_file?: string;
	    answers: number;
	    calls: CallSummary[];
	    manual?: boolean;
	    forward?: UpstreamCall;
	    pending?: PendingRequest;
	    run_id?: number;
	    error?: string;
	    seq: number;
	}
	

}

export namespace diag {
	
	export interface Diagnostic {
	    file: string;
	    line: number;
	    column: number;
	    severity: string;
	    code: string;
	    message: string;
	}

}

export namespace edit {
	
	export interface CommandHook {
	    index: number;
	    line: number;
	    fields: Record<string, string>;
	    filter: Record<string, string>;
	    unknown: string[];
	}
	export interface CommandEvent {
	    event: string;
	    line: number;
	    hooks: CommandHook[];
	}
	
	export interface CommandHookOp {
	    kind: string;
	    event: string;
	    index: number;
	    to: number;
	    key: string;
	    value: string;
	    delete: boolean;
	    fields: Record<string, string>;
	}
	export interface Conflict {
	    kind: string;
	    hook?: string;
	    field?: string;
	    line?: number;
	    base: string;
	    mine: string;
	    theirs: string;
	}
	export interface Hook {
	    name: string;
	    file: string;
	    timing: string;
	    role: string;
	    persistent: boolean;
	    tool_filter?: string[];
	}

}

export namespace engine {
	
	export interface Agent {
	    agent: string;
	    version: string;
	    by?: string;
	    request?: string;
	}
	export interface HookCall {
	    system: string;
	    event: string;
	    point: string;
	    hook: string;
	    source?: string;
	    outcome: string;
	    input?: number[];
	    output?: number[];
	    output_text?: string;
	    stderr?: string;
	    exit_code?: number;
	    rpc_error?: string;
	    error?: string;
	    duration_ms: number;
	    reused?: boolean;
	    notify?: boolean;
	    changes?: string[];
	    warnings?: string[];
	    notice?: string;
	    truncated?: boolean;
	    other?: string;
	}
	export interface HookInfo {
	    system: string;
	    event: string;
	    hook: string;
	    skill?: string;
	    source: string;
	    detail?: string;
	}
	export interface HookMetric {
	    system: string;
	    event: string;
	    hook: string;
	    source?: string;
	    runs: number;
	    successes: number;
	    failures: number;
	    skips: number;
	    total_ms: number;
	}
	export interface RequestInfo {
	    index: number;
	    user: string;
	    enabled_skills: string[];
	    calls: number[];
	    yielded: string[];
	    reply: string;
	    first_step: number;
	    last_step: number;
	    status?: string;
	    stopped_by?: string;
	}
	export interface Step {
	    index: number;
	    kind: string;
	    request: number;
	    phase?: string;
	    round?: number;
	    timing?: string;
	    checkpoint?: number;
	    prompt?: string;
	    tool?: string;
	    call?: number;
	    hooks?: string[];
	    yield?: number;
	    added: number[];
	    removed: number[];
	    hook_call?: HookCall;
	    hook_call_index?: number;
	}

}

export namespace events {
	
	export interface Event {
	    seq: number;
	    type: string;
	    agent_id: string;
	    message: string;
	    // Go type: time
	    timestamp: any;
	    step: number;
	    payload?: Record<string, any>;
	}
	export interface HookAnswer {
	    system: string;
	    event: string;
	    hook: string;
	    outcome: string;
	    answer?: string;
	}

}

export namespace expect {
	
	export interface Result {
	    kind: string;
	    title: string;
	    request?: number;
	    call?: number;
	    expected: string;
	    actual: string;
	    pass: boolean;
	    want?: string[];
	    got?: string[];
	    at?: number[];
	    messages?: string[];
	    file: string;
	    line: number;
	    column: number;
	    path: string;
	}

}

export namespace history {
	
	export interface MessageDiff {
	    op: string;
	    tag: string;
	    role: string;
	    a?: number;
	    b?: number;
	    content_a?: string;
	    content_b?: string;
	    tokens_a: number;
	    tokens_b: number;
	    token_delta: number;
	}
	export interface CallDiff {
	    request: number;
	    phase: string;
	    round?: number;
	    a?: number;
	    b?: number;
	    status: string;
	    tokens_a: number;
	    tokens_b: number;
	    token_delta: number;
	    same: number;
	    messages: MessageDiff[];
	}
	export interface RunSummary {
	    id: number;
	    scenario: string;
	    scenario_file: string;
	    scenario_hash: string;
	    backend: string;
	    agent?: string;
	    source: string;
	    status: string;
	    error?: string;
	    // Go type: time
	    started: any;
	    // Go type: time
	    ended: any;
	    wall_ms: number;
	    steps: number;
	    llm_calls: number;
	    tokens_in: number;
	    tokens_out: number;
	    max_prompt_tokens: number;
	}
	export interface Comparison {
	    a: RunSummary;
	    b: RunSummary;
	    calls: CallDiff[];
	    tokens_a: number;
	    tokens_b: number;
	    token_delta: number;
	    changed_calls: number;
	}
	export interface ExecHookMetrics {
	    system: string;
	    hook: string;
	    executions: number;
	    successes: number;
	    failures: number;
	    skipped: number;
	    total_duration_ms: number;
	}
	export interface Filter {
	    scenario: string;
	    skill: string;
	    // Go type: time
	    since: any;
	    // Go type: time
	    until: any;
	    source: string;
	    limit: number;
	    offset: number;
	}
	export interface HookPoint {
	    run: number;
	    // Go type: time
	    started: any;
	    scenario: string;
	    source: string;
	    content_hash: string;
	    injected: number;
	    calls_seen: number;
	    copies_seen: number;
	    tokens_total: number;
	}
	
	export interface ModelUsage {
	    model: string;
	    requests: number;
	    successes: number;
	    failures: number;
	    attempts: number;
	    prompt_tokens: number;
	    completion_tokens: number;
	    thinking_tokens: number;
	    cached_tokens: number;
	}
	export interface PromptPoint {
	    run: number;
	    // Go type: time
	    started: any;
	    source: string;
	    llm_calls: number;
	    tokens_in: number;
	    max_prompt_tokens: number;
	}

}

export namespace jsondoc {
	
	export interface Node {
	    Kind: number;
	    Offset: number;
	    End: number;
	    Raw: number[];
	    Key: string;
	    KeyOffset: number;
	    KeyEnd: number;
	    Str: string;
	    Bool: boolean;
	    Children: Node[];
	}

}

export namespace layout {
	
	export interface Layout {
	    skills_width?: number;
	    editor_width?: number;
	    messages_width?: number;
	    flow_height?: number;
	    bottom_height?: number;
	    flow_collapsed?: boolean;
	    bottom_collapsed?: boolean;
	    trust_read?: string;
	    agent_context?: boolean;
	}

}

export namespace locate {
	
	export interface CLI {
	    agent: string;
	    path: string;
	    version: string;
	}

}

export namespace loop {
	
	export interface Point {
	    x: number;
	    y: number;
	}
	export interface Edge {
	    from: string;
	    to: string;
	    exit: string;
	    enter: string;
	    exit_offset?: number;
	    enter_offset?: number;
	    via?: Point[];
	    label?: string;
	    label_at?: Point;
	    dashed?: boolean;
	}
	export interface Node {
	    id: string;
	    kind: string;
	    label: string;
	    sub?: string;
	    x: number;
	    y: number;
	    w: number;
	    events?: string[];
	    points?: string[];
	    checkpoint?: number;
	}
	export interface Frame {
	    x: number;
	    y: number;
	    w: number;
	    h: number;
	    label: string;
	    label_at: Point;
	}
	export interface Loop {
	    id: string;
	    title: string;
	    title_at: Point;
	    width: number;
	    height: number;
	    node_height: number;
	    frame: Frame;
	    nodes: Node[];
	    edges: Edge[];
	    elsewhere: string[];
	    sources: string[];
	}
	export interface Flow {
	    loop?: Loop;
	    why: string;
	    steps: number[];
	}
	
	
	

}

export namespace profile {
	
	export interface Change {
	    outcome: string;
	    field: string;
	    from: string;
	    to: string;
	}
	export interface Entry {
	    agent: string;
	    version: string;
	    origin: string;
	    file: string;
	}

}

export namespace profiles {
	
	export interface Profile {
	    name: string;
	    provider: string;
	    base_url: string;
	    model: string;
	    temperature?: number;
	    max_tokens?: number;
	    timeout?: number;
	}
	export interface Result {
	    ok: boolean;
	    message: string;
	    key_source: string;
	    latency: number;
	    reply?: string;
	}

}

export namespace recipe {
	
	export interface File {
	    path: string;
	    content: string;
	    merge?: boolean;
	    format: string;
	}
	export interface Var {
	    name: string;
	    value: string;
	}
	export interface Recipe {
	    agent: string;
	    name: string;
	    package: string;
	    version: string;
	    proprietary?: boolean;
	    api: string;
	    env: Var[];
	    files: File[];
	    before: string[][];
	    run: string[];
	    hooks: string;
	    trap: string;
	    notes: string[];
	    lines: string[];
	}

}

export namespace registry {
	
	export interface FileKind {
	    kind: string;
	    system: string;
	    role: string;
	    level: string;
	    patterns: string[];
	    schema: boolean;
	}
	export interface NewFile {
	    file: string;
	    kind: string;
	    system: string;
	    label: string;
	}
	export interface SystemInfo {
	    name: string;
	    label: string;
	    title: string;
	    agent: string;
	}

}

export namespace reqhook {
	
	export interface AttemptInfo {
	    cred_id: string;
	    email_masked: string;
	    status_code?: number;
	    reason?: string;
	    // Go type: time
	    timestamp: any;
	}
	export interface PolicyConfig {
	    rate_limit_per_minute?: number;
	    token_quota?: number;
	    allow?: string[];
	    deny?: string[];
	}
	export interface Usage {
	    prompt_tokens: number;
	    completion_tokens: number;
	    thinking_tokens: number;
	    cached_tokens: number;
	    total_tokens: number;
	    counted?: boolean;
	}
	export interface RequestContext {
	    request_id: string;
	    route: string;
	    model: string;
	    is_streaming: boolean;
	    current_credential_id: string;
	    current_credential_email: string;
	    attempts: AttemptInfo[];
	    usage_metadata?: Usage;
	    // Go type: time
	    start_time: any;
	    // Go type: time
	    first_byte_time?: any;
	    // Go type: time
	    end_time?: any;
	    success: boolean;
	    error: string;
	    http_status: number;
	    call: number;
	    request: number;
	    phase: string;
	    round: number;
	}
	export interface RowHook {
	    step: number;
	    event: string;
	    hook: string;
	    source?: string;
	    outcome: string;
	    duration_ms: number;
	    error?: string;
	}
	export interface Row {
	    call: number;
	    request: number;
	    phase: string;
	    round: number;
	    context?: RequestContext;
	    hooks: RowHook[];
	}
	

}

export namespace search {
	
	export interface Segment {
	    text: string;
	    hit?: boolean;
	}
	export interface Hit {
	    key: string;
	    source: string;
	    run: number;
	    file: string;
	    agent: string;
	    version: string;
	    project: string;
	    title: string;
	    // Go type: time
	    started: any;
	    kind: string;
	    role: string;
	    origin: string;
	    call: number;
	    message: number;
	    step: number;
	    hook: string;
	    event: string;
	    outcome: string;
	    tool: string;
	    count: number;
	    snippet: Segment[];
	    rank: number;
	}
	export interface Progress {
	    done: number;
	    total: number;
	    current?: string;
	    indexed: number;
	    running: boolean;
	    error?: string;
	}
	export interface Query {
	    text: string;
	    agent: string;
	    project: string;
	    hook: string;
	    event: string;
	    outcome: string;
	    source: string;
	    kind: string;
	    // Go type: time
	    since: any;
	    // Go type: time
	    until: any;
	    limit: number;
	    offset: number;
	}
	export interface Results {
	    hits: Hit[];
	    total: number;
	    more: boolean;
	    offset: number;
	    limit: number;
	}

}

export namespace sessions {
	
	export interface CallInfo {
	    exact: boolean;
	    line: number;
	    request_id?: string;
	    model?: string;
	    params?: number[];
	    tools: string[];
	    missing?: string[];
	    call: number;
	}
	export interface Filter {
	    agent: string;
	    project: string;
	    search: string;
	}
	export interface HookCount {
	    label: string;
	    count: number;
	}
	export interface Locations {
	    claude: string;
	    codex: string;
	    gemini: string;
	    qwen: string;
	    copilot: string;
	}
	export interface Note {
	    line: number;
	    kind: string;
	    message: string;
	}
	export interface Unknown {
	    type: string;
	    count: number;
	    lines: number[];
	    sample?: number[];
	}
	export interface Session {
	    agent: string;
	    version: string;
	    id: string;
	    file: string;
	    project: string;
	    // Go type: time
	    started: any;
	    // Go type: time
	    ended: any;
	    model: string;
	    prompt: string;
	    turns: number;
	    calls: CallInfo[];
	    hooks: number;
	    lines: number;
	    bytes: number;
	    notes: Note[];
	    unknown: Unknown[];
	}
	export interface Summary {
	    agent: string;
	    version: string;
	    id: string;
	    file: string;
	    project: string;
	    // Go type: time
	    started: any;
	    // Go type: time
	    ended: any;
	    prompt: string;
	    turns: number;
	    calls: number;
	    model: string;
	    hooks: HookCount[];
	    size: number;
	    // Go type: time
	    modified: any;
	}

}

export namespace skills {
	
	export interface Pos {
	    offset: number;
	    line: number;
	    column: number;
	}
	export interface Entry {
	    index: number;
	    name: string;
	    file: string;
	    timing: string;
	    role: string;
	    persistent: boolean;
	    tool_filter?: string[];
	    pos: Pos;
	    fields: Record<string, Pos>;
	    ok: boolean;
	}
	export interface Hook {
	    skill: string;
	    name: string;
	    file: string;
	    timing: string;
	    role: string;
	    persistent: boolean;
	    tool_filter?: string[];
	    content: string;
	    line: number;
	}

}

export namespace studio {
	
	export interface AgentChoice {
	    agent: string;
	    chosen: string;
	    versions: profile.Entry[];
	    installed: locate.CLI;
	}
	export interface TokenSplit {
	    agent: number;
	    tools: number;
	    hooks: number;
	    conversation: number;
	}
	export interface Call {
	    index: number;
	    request: number;
	    phase: string;
	    round?: number;
	    step: number;
	    content: string;
	    tool_calls?: engine.ToolCall[];
	    need_tool?: boolean;
	    error?: string;
	    model?: string;
	    added_tools?: string[];
	    original_content?: string;
	    withheld_tools?: string[];
	    answered_by?: string;
	    warning?: string;
	    offered?: string[];
	    tool_tokens?: number;
	    tokens: number;
	    split?: TokenSplit;
	}
	export interface CallChange {
	    call: number;
	    added: number;
	    removed: number;
	    changed: number;
	    summary: string;
	}
	export interface ClaudeEventInfo {
	    name: string;
	    fires: boolean;
	    matcher: boolean;
	    if: boolean;
	}
	export interface ClaudeHooksEdit {
	    text: string;
	    editable: boolean;
	    error?: string;
	    hooks: number[];
	    lines: Record<string, number>;
	    events: ClaudeEventInfo[];
	    diagnostics: diag.Diagnostic[];
	}
	export interface CommandHooksEdit {
	    text: string;
	    editable: boolean;
	    error?: string;
	    events: edit.CommandEvent[];
	    diagnostics: diag.Diagnostic[];
	}
	export interface ConvertTarget {
	    agent: string;
	    title: string;
	    hosted: boolean;
	}
	export interface ConvertSource {
	    folder: string;
	    agent: string;
	    title: string;
	}
	export interface ConvertChoices {
	    sources: ConvertSource[];
	    targets: ConvertTarget[];
	}
	export interface ConvertFile {
	    path: string;
	    role: string;
	    action: string;
	    mode: string;
	    from?: string;
	    text?: string;
	}
	export interface ConvertPlan {
	    source: string;
	    from: string;
	    to: string;
	    layout: string;
	    dir: string;
	    dir_rel: string;
	    written: number;
	    left: number;
	    diagnostics: diag.Diagnostic[];
	    source_diagnostics: diag.Diagnostic[];
	    files: ConvertFile[];
	    conflicts: diag.Diagnostic[];
	    checked: diag.Diagnostic[];
	    hosted: boolean;
	    unsaved: boolean;
	    can_write: boolean;
	    wrote: boolean;
	}
	export interface ConvertRequest {
	    source: string;
	    to: string;
	    layout: string;
	    dir: string;
	    force: boolean;
	}
	
	
	export interface ExecCommand {
	    source: string;
	    event: string;
	    hook: string;
	    skill?: string;
	    command: string;
	    dir: string;
	}
	export interface ExecRun {
	    ran: boolean;
	    not_run?: string;
	    hooks: engine.HookInfo[];
	    metrics: engine.HookMetric[];
	    duration_ms: number;
	}
	export interface ExecState {
	    present: boolean;
	    trusted: boolean;
	    changed: boolean;
	    files: string[];
	    commands: ExecCommand[];
	    hooks: engine.HookInfo[];
	    error?: string;
	}
	export interface FileSnapshot {
	    file: string;
	    content: string;
	    hash: string;
	    exists: boolean;
	}
	export interface HookFile {
	    file: string;
	    kind: string;
	    exists: boolean;
	}
	export interface HookOp {
	    kind: string;
	    index: number;
	    to: number;
	    name: string;
	    hook?: edit.Hook;
	    fields: Record<string, any>;
	}
	export interface HooksEdit {
	    text: string;
	    entries: skills.Entry[];
	    diagnostics: diag.Diagnostic[];
	}
	export interface Matrix {
	    hooks: string[];
	    systems: string[];
	    copies: number[][];
	    tokens: number[][];
	    totals: number[];
	}
	export interface MergeResult {
	    text: string;
	    conflicts: edit.Conflict[];
	}
	export interface Message {
	    id: number;
	    role: string;
	    content: string;
	    origin: string;
	    history_of?: string;
	    hook?: string;
	    skill?: string;
	    timing?: string;
	    persistent?: boolean;
	    prompt?: string;
	    tool?: string;
	    tool_call_id?: string;
	    tool_calls?: engine.ToolCall[];
	    request: number;
	    system?: string;
	    edited_by?: string;
	    hook_call?: number;
	    in_place?: boolean;
	    pieces?: string[];
	    placeholder?: boolean;
	    placeholder_tokens?: number;
	    created: number;
	    removed?: number;
	    tokens: number;
	    pos?: number;
	    hidden?: number[][];
	}
	export interface PendingApproval {
	    id: string;
	    tool: string;
	    tool_call_id: string;
	    arguments: Record<string, any>;
	    reason: string;
	    timeout_ms: number;
	    // Go type: time
	    deadline: any;
	    step: number;
	    hooks?: events.HookAnswer[];
	    scenario: string;
	}
	export interface ProfileInfo {
	    name: string;
	    provider: string;
	    base_url: string;
	    model: string;
	    temperature?: number;
	    max_tokens?: number;
	    timeout?: number;
	    key_source: string;
	}
	export interface Progress {
	    active: boolean;
	    file: string;
	    started_ms: number;
	    elapsed_ms: number;
	    steps: number;
	    hook_calls: number;
	    point?: string;
	    last?: string;
	    status?: string;
	}
	export interface RunOptions {
	    profile: string;
	    step: boolean;
	    breakpoints: number[];
	    max_rounds: number;
	}
	export interface SaveResult {
	    status: string;
	    hash: string;
	    theirs?: string;
	    diagnostics: diag.Diagnostic[];
	}
	export interface ScenarioInfo {
	    file: string;
	    name: string;
	    requests: number;
	    diagnostics: diag.Diagnostic[];
	    valid: boolean;
	}
	export interface SkillInfo {
	    name: string;
	    dir: string;
	    has_hooks: boolean;
	    hooks: skills.Hook[];
	    diagnostics: diag.Diagnostic[];
	    broken: boolean;
	    enabled: boolean;
	    color: string;
	}
	export interface State {
	    root: string;
	    root_missing: boolean;
	    recent: string[];
	    skills: SkillInfo[];
	    scenarios: ScenarioInfo[];
	    selected: string;
	    errors: number;
	    warnings: number;
	    diagnostics: diag.Diagnostic[];
	    notice?: string;
	    drafts: string[];
	    exec: ExecState;
	    seq: number;
	}
	
	export interface TraceView {
	    revision: number;
	    scenario: string;
	    file: string;
	    status: string;
	    error?: string;
	    agent?: engine.Agent;
	    diagnostics: diag.Diagnostic[];
	    hooks: skills.Hook[];
	    messages: Message[];
	    steps: engine.Step[];
	    calls: Call[];
	    requests: engine.RequestInfo[];
	    matrix: Matrix;
	    changes: CallChange[];
	    tools: string[];
	    draft: boolean;
	    exec: ExecRun;
	    pending: boolean;
	    expectations: expect.Result[];
	    flow: loop.Flow;
	}
	export interface UserFile {
	    system: string;
	    title: string;
	    usage: string;
	    file: string;
	    folder: boolean;
	    name: string;
	}

}

export namespace version {
	
	export interface Info {
	    version: string;
	    commit: string;
	    date: string;
	    goVersion: string;
	    platform: string;
	    history: boolean;
	}

}

