package runtime

import (
	"context"
	"fmt"
	"maps"
	"os"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/skills"
)

// skillFilesInterval is how long after one rescan of the SKILL.md files
// ends the next may start (Gate.Skills starts it, in the background): a
// stat of each, and a re-parse of the ones that changed. A thousand skills
// take a few milliseconds; this bounds that to once a second however often
// the prompt is built.
const skillFilesInterval = time.Second

// skillHost answers the skills validator's questions about this host with
// the engine's view of it: the same environment the probes see, and the
// same bin: resolver.
type skillHost struct {
	engine *Engine
}

func (h skillHost) LookupEnv(name string) (string, bool) {
	if f := h.engine.cfg.lookupEnv; f != nil {
		return f(name)
	}
	return os.LookupEnv(name)
}

func (h skillHost) HasBinary(name string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	ok, err := h.engine.resolvers.Resolve(ctx, "bin:"+name)
	return err == nil && ok
}

func (h skillHost) OS() string { return goruntime.GOOS }

// gateSkills is a Gate's skills: the manager, and the rescans of its
// files, which run in the background so that no reader waits for one.
type gateSkills struct {
	manager      *skills.Manager
	levelWarning string

	// rescan reads the skill files again, giving up when its context
	// ends: the manager's RefreshContext; tests replace it.
	rescan func(context.Context)
	// ctx ends when the Gate closes, abandoning a rescan under way.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // the rescan under way

	mu          sync.Mutex
	lastRefresh time.Time // when the last rescan ended
	running     bool      // a rescan is under way
	closed      bool
}

func newGateSkills(m *skills.Manager, levelWarning string) *gateSkills {
	s := &gateSkills{manager: m, levelWarning: levelWarning, lastRefresh: time.Now()}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.rescan = func(ctx context.Context) { _, _ = m.RefreshContext(ctx) }
	return s
}

// setupSkills discovers the skills of the paths (the manifest's, or the
// GateConfig's, which win) at the enforcement level: the GateConfig's if
// set, else SKILL_CAPABILITY_ENFORCEMENT, else the manifest's, else warn.
// toolsets are the toolsets the manifest's tools declare (toolsetsOf).
// The walk gives up, and so does opening the Gate, when ctx ends.
func (g *Gate) setupSkills(ctx context.Context, cfg GateConfig, ms manifest.Skills, toolsets map[string]string) error {
	paths := ms.Paths
	if cfg.skillPaths != nil {
		paths = cfg.skillPaths
	}
	if len(paths) == 0 {
		return nil
	}
	host := skillHost{engine: g.engine}
	level, warning := skills.LevelFromEnv(host.LookupEnv)
	if v, _ := host.LookupEnv("SKILL_CAPABILITY_ENFORCEMENT"); strings.TrimSpace(v) == "" && ms.Enforcement != "" {
		level, _ = skills.ParseLevel(ms.Enforcement) // the manifest checked it
	}
	if cfg.skillLevel != nil {
		level, warning = *cfg.skillLevel, ""
	}
	cat, err := skills.DiscoverContext(ctx, paths, skills.DiscoverOptions{
		AllowedToolsRequired: ms.AllowedToolsRequired,
		FollowOutsideLinks:   ms.FollowOutsideLinks,
	})
	if err != nil {
		return fmt.Errorf("discovering skills: %w", err)
	}
	g.skills = newGateSkills(skills.NewManager(cat, skills.ManagerOptions{
		Level:    level,
		Host:     host,
		Logger:   cfg.registry.logger,
		Toolsets: toolsets,
	}), warning)
	return nil
}

// Skills returns the Gate's skills, validated against the tools and
// servers available now (tools count only when available, not merely
// registered), or nil when the Gate has no skill paths. Only skills whose
// tools or servers flipped since the last call are validated again.
//
// Skill files that changed on disk are read again in the background: a
// call made at least a second after the last rescan ended starts one,
// unless one is under way, and returns at once with the skills as they
// were; the next calls see what the rescan found. A slow or stuck file
// system, or a large tree, so delays what the skills show, never the
// caller (the HTTP handlers, the prompt of the next model call).
func (g *Gate) Skills(ctx context.Context) *skills.Manager {
	if g.skills == nil {
		return nil
	}
	g.skills.startRescan()
	g.skills.manager.SetAvailable(toolNames(g.tools.ListAvailable(ctx)), toolNames(g.servers.ListAvailable(ctx)))
	return g.skills.manager
}

// startRescan starts a rescan of the skill files if one is due and none is
// under way, and the Gate is open.
func (s *gateSkills) startRescan() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running || s.closed || time.Since(s.lastRefresh) < skillFilesInterval {
		return
	}
	s.running = true
	s.wg.Add(1) // under mu, so never after close's Wait began
	go func() {
		defer s.wg.Done()
		s.rescan(s.ctx)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.running = false
		// The interval runs from the end: a walk that takes longer than
		// it is not started again back to back.
		s.lastRefresh = time.Now()
	}()
}

// closeSkills stops rescanning the skill files: a rescan under way is told
// to give up and waited for, as long as ctx allows, so that none runs on
// after the Gate is closed.
func (g *Gate) closeSkills(ctx context.Context) error {
	if g.skills == nil {
		return nil
	}
	s := g.skills
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("closing the skills: a rescan of the skill files has not stopped yet: %w", ctx.Err())
	}
}

// SkillsPrompt returns the <available_skills> block for the next model
// call, or "" when no skill is to be offered.
func (g *Gate) SkillsPrompt(ctx context.Context) string {
	m := g.Skills(ctx)
	if m == nil {
		return ""
	}
	return m.Prompt()
}

// SkillsLevelWarning is the warning about an unrecognised
// SKILL_CAPABILITY_ENFORCEMENT value, or "".
func (g *Gate) SkillsLevelWarning() string {
	if g.skills == nil {
		return ""
	}
	return g.skills.levelWarning
}

// toolsetsOf maps each tool that declares a toolset (its toolset key) to
// it, for the skills' requires_toolsets; nil when none does. A tool that
// declares none is in the toolset of its own name (skills.ManagerOptions).
func toolsetsOf(tools []manifest.Tool) map[string]string {
	var out map[string]string
	for _, t := range tools {
		if t.Toolset != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[t.Name] = t.Toolset
		}
	}
	return out
}

func toolNames(tools []Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

// skillMark is what the service publishes a change of for one skill: its
// state, whether it is offered, and which file, with which bytes, it was
// read from.
type skillMark struct {
	state   string
	offered bool
	path    string
	digest  uint64
}

func (s *Service) skillMarks(ctx context.Context, g *Gate) map[string]skillMark {
	m := g.Skills(ctx)
	if m == nil {
		return nil
	}
	// The offers and the diagnostics are two reads, and a rescan may
	// replace the catalog between them: a skill just added would then be
	// in the diagnostics but not yet among the offers, and be published
	// as not offered. The offers read again after the diagnostics tell
	// such a swap, and the three reads are made again.
	offeredNames := func() map[string]bool {
		out := map[string]bool{}
		for _, sk := range m.Offered() {
			out[sk.Name] = true
		}
		return out
	}
	offered := offeredNames()
	diags := m.Diagnostics()
	for range 3 {
		again := offeredNames()
		if maps.Equal(offered, again) {
			break
		}
		offered, diags = again, m.Diagnostics()
	}
	marks := map[string]skillMark{}
	for _, r := range diags {
		mark := skillMark{state: string(r.State), offered: offered[r.SkillName]}
		if sk, ok := m.Skill(r.SkillName); ok {
			mark.path, mark.digest = sk.Path, sk.Digest()
		}
		marks[r.SkillName] = mark
	}
	return marks
}

// Reasons of skill events that are not a change of state or offer.
const (
	skillAdded   = "its folder was added"
	skillChanged = "its SKILL.md changed"
	skillRemoved = "its folder was removed"
)

// skillEvents are the changes from before to after: a skill whose state,
// offer or SKILL.md changed, one that appeared, and one that is gone
// (state "removed"), in name order.
func (s *Service) skillEvents(before, after map[string]skillMark) []Event {
	now := s.Gate().tools.cfg.clock.Now()
	var events []Event
	for _, name := range slices.Sorted(maps.Keys(after)) {
		old, had := before[name]
		cur := after[name]
		e := Event{Type: "skill", Name: name, State: cur.state, Available: cur.offered, At: now}
		switch {
		case !had:
			e.Reason = skillAdded
		case old.state != cur.state || old.offered != cur.offered:
		case old.path != cur.path || old.digest != cur.digest:
			e.Reason = skillChanged
		default:
			continue
		}
		events = append(events, e)
	}
	for _, name := range slices.Sorted(maps.Keys(before)) {
		if _, ok := after[name]; !ok {
			events = append(events, Event{Type: "skill", Name: name, State: "removed", Reason: skillRemoved, At: now})
		}
	}
	return events
}
