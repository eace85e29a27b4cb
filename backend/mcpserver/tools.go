package mcpserver

// The tools' arguments, in Playwright MCP's names and shapes. target is a ref from the
// latest snapshot or a unique selector; ref is its older spelling, accepted alike. element
// is the agent's description of the element, recorded with the step.

type noArgs struct{}

type navigateArgs struct {
	URL string `json:"url" jsonschema:"The URL to navigate to"`
}

// elementArgs name the element a tool acts on.
type elementArgs struct {
	Element string `json:"element,omitempty" jsonschema:"Human-readable element description used to obtain permission to interact with the element"`
	Target  string `json:"target,omitempty" jsonschema:"Exact target element reference from the page snapshot, or a unique element selector"`
	Ref     string `json:"ref,omitempty" jsonschema:"The older spelling of target"`
}

type clickArgs struct {
	elementArgs
	DoubleClick bool     `json:"doubleClick,omitempty" jsonschema:"Whether to perform a double click instead of a single click (not supported: one click is one step)"`
	Button      string   `json:"button,omitempty" jsonschema:"Button to click, defaults to left (only left is supported)"`
	Modifiers   []string `json:"modifiers,omitempty" jsonschema:"Modifier keys to press (not supported)"`
}

type typeArgs struct {
	elementArgs
	Text   string `json:"text" jsonschema:"Text to type into the element"`
	Submit bool   `json:"submit,omitempty" jsonschema:"Whether to submit entered text (press Enter after)"`
	Slowly bool   `json:"slowly,omitempty" jsonschema:"Whether to type one character at a time (the text is filled at once either way)"`
}

type formField struct {
	Element string `json:"element,omitempty" jsonschema:"Human-readable element description used to obtain permission to interact with the element"`
	Name    string `json:"name" jsonschema:"Human-readable field name"`
	Type    string `json:"type" jsonschema:"Type of the field"`
	Target  string `json:"target,omitempty" jsonschema:"Exact target element reference from the page snapshot, or a unique element selector"`
	Ref     string `json:"ref,omitempty" jsonschema:"The older spelling of target"`
	Value   string `json:"value" jsonschema:"Value to fill in the field. If the field is a checkbox, the value should be true or false. If the field is a combobox, the value should be the text of the option."`
}

type fillFormArgs struct {
	Fields []formField `json:"fields" jsonschema:"Fields to fill in"`
}

type selectArgs struct {
	elementArgs
	Values []string `json:"values" jsonschema:"Array of values to select in the dropdown (one value per call)"`
}

type pressArgs struct {
	Key string `json:"key" jsonschema:"Name of the key to press or a character to generate, such as ArrowLeft or a"`
}

type hoverArgs struct{ elementArgs }

type waitArgs struct {
	Time     float64 `json:"time,omitempty" jsonschema:"The time to wait in seconds (at most 30)"`
	Text     string  `json:"text,omitempty" jsonschema:"The text to wait for"`
	TextGone string  `json:"textGone,omitempty" jsonschema:"The text to wait for to disappear"`
}

type screenshotArgs struct {
	Element  string `json:"element,omitempty" jsonschema:"Human-readable element description (the screenshot shows the viewport)"`
	Target   string `json:"target,omitempty" jsonschema:"Element reference (the screenshot shows the viewport)"`
	Ref      string `json:"ref,omitempty" jsonschema:"The older spelling of target"`
	Type     string `json:"type,omitempty" jsonschema:"Image format for the screenshot (a png is returned)"`
	Filename string `json:"filename,omitempty" jsonschema:"File name (the screenshot is returned, never written to a file)"`
	FullPage bool   `json:"fullPage,omitempty" jsonschema:"Full scrollable page (the screenshot shows the viewport)"`
	Scale    string `json:"scale,omitempty" jsonschema:"Image resolution scale: css or device (the browser's own scale is used)"`
}

type snapshotArgs struct {
	Target   string   `json:"target,omitempty" jsonschema:"Exact target element reference from the page snapshot, or a unique element selector: the snapshot of that element's subtree"`
	Ref      string   `json:"ref,omitempty" jsonschema:"The older spelling of target"`
	Filename string   `json:"filename,omitempty" jsonschema:"File name (the snapshot is returned, never written to a file)"`
	Depth    *float64 `json:"depth,omitempty" jsonschema:"Limit the depth of the snapshot tree"`
	Boxes    bool     `json:"boxes,omitempty" jsonschema:"Include each element's bounding box (not given: the reply says so)"`
}

type uploadArgs struct {
	Paths []string `json:"paths,omitempty" jsonschema:"The paths of the files to upload, inside the task's uploads folder (one file per call)"`
}

type tabsArgs struct {
	Action string   `json:"action" jsonschema:"Operation to perform"`
	Index  *float64 `json:"index,omitempty" jsonschema:"Tab index, used for close/select. If omitted for close, current tab is closed."`
	URL    string   `json:"url,omitempty" jsonschema:"URL to navigate to in the new tab, used for new"`
}

type consoleArgs struct {
	Level    string `json:"level,omitempty" jsonschema:"Level of the console messages to return. Each level includes the messages of more severe levels. Defaults to info."`
	All      bool   `json:"all,omitempty" jsonschema:"Return the messages of the whole attempt (they are always the attempt's)"`
	Filename string `json:"filename,omitempty" jsonschema:"File name (the messages are returned as text, never written to a file)"`
}

type networkArgs struct {
	Static   bool   `json:"static,omitempty" jsonschema:"Whether to include successful static resources like images, fonts, scripts, etc. Defaults to false."`
	Filter   string `json:"filter,omitempty" jsonschema:"Only return requests whose URL matches this regexp"`
	Filename string `json:"filename,omitempty" jsonschema:"File name (the requests are returned as text, never written to a file)"`
}

type networkRequestArgs struct {
	Index    float64 `json:"index" jsonschema:"1-based index of the request, as printed by browser_network_requests"`
	Part     string  `json:"part,omitempty" jsonschema:"Return only this part of the request (what the record holds of it)"`
	Filename string  `json:"filename,omitempty" jsonschema:"File name (the request is returned as text, never written to a file)"`
}

type findArgs struct {
	Text     string `json:"text,omitempty" jsonschema:"Plain text to search for in the page snapshot (case-insensitive substring match)"`
	Regex    string `json:"regex,omitempty" jsonschema:"Regular expression to search for in the page snapshot; /pattern/i for flags"`
	Filename string `json:"filename,omitempty" jsonschema:"File name (the lines are returned, never written to a file)"`
}

type evaluateArgs struct {
	elementArgs
	Function string `json:"function" jsonschema:"() => { /* code */ } or (element) => { /* code */ } when element is provided"`
	Filename string `json:"filename,omitempty" jsonschema:"File name (the result is returned as text, never written to a file)"`
}

type runCodeArgs struct {
	Code     string `json:"code,omitempty" jsonschema:"A JavaScript function containing Playwright code (not run: use browser_evaluate)"`
	Filename string `json:"filename,omitempty" jsonschema:"Load code from the specified file (not run)"`
}

type dialogArgs struct {
	Accept     bool   `json:"accept" jsonschema:"Whether to accept the dialog."`
	PromptText string `json:"promptText,omitempty" jsonschema:"The text of the prompt in case of a prompt dialog."`
}

type resizeArgs struct {
	Width  float64 `json:"width" jsonschema:"Width of the browser window"`
	Height float64 `json:"height" jsonschema:"Height of the browser window"`
}

type dragArgs struct {
	StartElement string `json:"startElement,omitempty" jsonschema:"Human-readable source element description used to obtain the permission to interact with the element"`
	StartTarget  string `json:"startTarget,omitempty" jsonschema:"Exact target element reference from the page snapshot, or a unique element selector"`
	StartRef     string `json:"startRef,omitempty" jsonschema:"The older spelling of startTarget"`
	EndElement   string `json:"endElement,omitempty" jsonschema:"Human-readable target element description used to obtain the permission to interact with the element"`
	EndTarget    string `json:"endTarget,omitempty" jsonschema:"Exact target element reference from the page snapshot, or a unique element selector"`
	EndRef       string `json:"endRef,omitempty" jsonschema:"The older spelling of endTarget"`
}

type dropArgs struct {
	elementArgs
	Paths []string          `json:"paths,omitempty" jsonschema:"Absolute paths to files to drop onto the element"`
	Data  map[string]string `json:"data,omitempty" jsonschema:"Data to drop, as a map of MIME type to string value"`
}

type emulateArgs struct {
	ColorScheme   *string `json:"colorScheme,omitempty" jsonschema:"Emulates the prefers-color-scheme media feature"`
	ReducedMotion *string `json:"reducedMotion,omitempty" jsonschema:"Emulates the prefers-reduced-motion media feature"`
	ForcedColors  *string `json:"forcedColors,omitempty" jsonschema:"Emulates the forced-colors media feature"`
	Contrast      *string `json:"contrast,omitempty" jsonschema:"Emulates the prefers-contrast media feature"`
	Media         *string `json:"media,omitempty" jsonschema:"Changes the CSS media type of the page"`
}

type doneArgs struct {
	Claim  string `json:"claim,omitempty" jsonschema:"In your words, what you did and why you believe the task is done"`
	Answer string `json:"answer,omitempty" jsonschema:"Your answer, if the task asks a question"`
	Done   *bool  `json:"done,omitempty" jsonschema:"false to give up without claiming the task done; defaults to true"`
}

// condition is one completion condition as task_done reports it: holds, or could not be
// confirmed (with why), and the evidence in words.
type condition struct {
	ID              string `json:"id"`
	Label           string `json:"label"`
	Holds           bool   `json:"holds"`
	CouldNotConfirm string `json:"could_not_confirm,omitempty"`
	Reason          string `json:"reason"`
}

type gateResult struct {
	Done       bool        `json:"done"`
	Conditions []condition `json:"conditions"`
}

// doneResult is task_done's structured result: what the gate found, and how the attempt
// ended.
type doneResult struct {
	Attempt  string     `json:"attempt"`
	Gate     gateResult `json:"gate"`
	Terminal string     `json:"terminal"`
	Reason   string     `json:"reason"`
}

// intentResult is task_intent's structured result.
type intentResult struct {
	Intent string `json:"intent"`
	// Attempt and StartURL are the attempt the agent's browser calls act in and the absolute
	// address it began at; empty when none could start.
	Attempt  string   `json:"attempt,omitempty"`
	StartURL string   `json:"start_url,omitempty"`
	Origins  []string `json:"origins,omitempty"`
	// Gate names what the completion gate will check, in words.
	Gate []string `json:"gate"`
}
