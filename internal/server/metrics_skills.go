package server

import (
	"time"

	"github.com/gate-dev/gate/skills"
	"github.com/prometheus/client_golang/prometheus"
)

// skillStates are the values of gate_skill_state's state label.
var skillStates = []string{string(skills.StateActive), string(skills.StateDegraded), string(skills.StateUnavailable)}

// skillDescs are the series of one skill, labelled by its name: the
// skills directories the manifest names bound them, and a skill that goes
// takes its series with it.
type skillDescs struct {
	state, offered, changed *prometheus.Desc
}

func newSkillDescs() *skillDescs {
	return &skillDescs{
		state:   prometheus.NewDesc("gate_skill_state", "1 for the skill's current state (active, degraded, unavailable), 0 for the others.", []string{"skill", "state"}, nil),
		offered: prometheus.NewDesc("gate_skill_offered", "1 when the skill is in the <available_skills> prompt now, 0 when not.", []string{"skill"}, nil),
		changed: prometheus.NewDesc("gate_skill_last_change_timestamp_seconds", "When the skill's state last changed (unix seconds), or when gate first saw it.", []string{"skill"}, nil),
	}
}

func (d *skillDescs) describe(ch chan<- *prometheus.Desc) {
	ch <- d.state
	ch <- d.offered
	ch <- d.changed
}

// collect writes every skill's series and returns the counts by state
// and how many are offered, for the totals. Two skills of one name (the
// catalog keeps one, but a host app's need not) make one series set, the
// first's, so that the scrape does not fail on a duplicate.
func (d *skillDescs) collect(ch chan<- prometheus.Metric, m *skills.Manager, clock *changeClock, labels *labelCache, now time.Time) (counts map[string]int, offered int) {
	counts = map[string]int{}
	if m == nil {
		return counts, 0
	}
	offeredNow := m.Offered()
	inPrompt := make(map[string]bool, len(offeredNow))
	for _, s := range offeredNow {
		inPrompt[s.Name] = true
	}
	seen := map[string]bool{}
	for _, r := range m.Diagnostics() {
		counts[string(r.State)]++
		if seen[r.SkillName] {
			continue
		}
		seen[r.SkillName] = true
		l := labels.of("skill", "skill", r.SkillName, skillStates)
		if l == nil {
			continue
		}
		for i, s := range skillStates {
			sample(ch, d.state, l.states[i], boolValue(string(r.State) == s))
		}
		sample(ch, d.offered, l.name, boolValue(inPrompt[r.SkillName]))
		sample(ch, d.changed, l.name, unixSeconds(clock.since("skill", r.SkillName, string(r.State), time.Time{}, now)))
	}
	return counts, len(offeredNow)
}
