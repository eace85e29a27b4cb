package agent

// RoleName is one (role, accessible name) pair seen on the page.
type RoleName struct {
	Role string `json:"role"`
	Name string `json:"name"`
}

// Field is one form control as observed.
type Field struct {
	Role    string `json:"role"`
	Name    string `json:"name"`
	Value   string `json:"value"`
	Invalid bool   `json:"invalid,omitempty"`
}

// Sample is what the page showed at one moment, taken in a single browser round trip.
type Sample struct {
	// AtMS is milliseconds since the attempt started.
	AtMS       int64      `json:"at_ms"`
	URL        string     `json:"url"`
	DialogOpen bool       `json:"dialog_open"`
	Fields     []Field    `json:"fields"`
	Notice     string     `json:"notice"` // text of the visible role=status element, if any
	Alert      string     `json:"alert"`  // text of the visible role=alert element, if any
	Rows       [][]string `json:"rows"`   // the data table's body rows, cell texts
	// FormPresent is true when a form is on the page; FormValid when it has no invalid field.
	FormPresent bool       `json:"form_present"`
	FormValid   bool       `json:"form_valid"`
	Pairs       []RoleName `json:"pairs"`
	// Screenshot is the stored image's path relative to the run's media folder, if taken.
	Screenshot string `json:"screenshot,omitempty"`
}
