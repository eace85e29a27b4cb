package harness

import (
	"regexp"

	"observatory/backend/agent"
)

// moneyWords are control names whose commit moves money or goods: such a commit is high
// risk, and stops when the price, amount or recipient it was planned on changes.
var moneyWords = regexp.MustCompile(`(?i)\b(pay|buy|purchase|order|checkout|check out|donate|transfer|withdraw)\b`)

// RiskOf is how much an action classified c stakes on the page being unchanged: a destruct,
// and a commit whose control pays, buys, orders or transfers, is high risk; any other commit
// is low risk. An action that commits nothing has no risk ("").
func RiskOf(c Classification) agent.Risk {
	switch {
	case !c.Class.Commits():
		return ""
	case c.Class == agent.ClassDestruct, moneyWords.MatchString(c.Control):
		return agent.RiskHigh
	}
	return agent.RiskLow
}
