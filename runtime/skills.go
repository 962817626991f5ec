package runtime

import (
	"context"
	"os"
	goruntime "runtime"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/runtime/manifest"
	"github.com/gate-dev/gate/skills"
)

// skillFilesInterval is how often Gate.Skills looks again at the SKILL.md
// files: a stat of each, and a re-parse of the ones that changed. A
// thousand skills take a few milliseconds; this bounds that to once a
// second however often the prompt is built.
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

// gateSkills is a Gate's skills: the manager and when its files were last
// looked at.
type gateSkills struct {
	manager      *skills.Manager
	levelWarning string

	mu          sync.Mutex
	lastRefresh time.Time
}

// setupSkills discovers the skills of the paths (the manifest's, or the
// GateConfig's, which win) at the enforcement level: the GateConfig's if
// set, else SKILL_CAPABILITY_ENFORCEMENT, else the manifest's, else warn.
func (g *Gate) setupSkills(cfg GateConfig, ms manifest.Skills) {
	paths := ms.Paths
	if cfg.skillPaths != nil {
		paths = cfg.skillPaths
	}
	if len(paths) == 0 {
		return
	}
	host := skillHost{engine: g.engine}
	level, warning := skills.LevelFromEnv(host.LookupEnv)
	if v, _ := host.LookupEnv("SKILL_CAPABILITY_ENFORCEMENT"); strings.TrimSpace(v) == "" && ms.Enforcement != "" {
		level, _ = skills.ParseLevel(ms.Enforcement) // the manifest checked it
	}
	if cfg.skillLevel != nil {
		level, warning = *cfg.skillLevel, ""
	}
	cat := skills.Discover(paths, skills.DiscoverOptions{
		ParseOptions: skills.ParseOptions{AllowedToolsRequired: ms.AllowedToolsRequired},
	})
	g.skills = &gateSkills{
		manager: skills.NewManager(cat, skills.ManagerOptions{
			Level:  level,
			Host:   host,
			Logger: cfg.registry.logger,
		}),
		levelWarning: warning,
		lastRefresh:  time.Now(),
	}
}

// Skills returns the Gate's skills, validated against the tools and
// servers available now (tools count only when available, not merely
// registered), or nil when the Gate has no skill paths. Only skills whose
// tools or servers flipped since the last call are validated again, and
// skill files that changed on disk are read again (at most once a second).
func (g *Gate) Skills(ctx context.Context) *skills.Manager {
	if g.skills == nil {
		return nil
	}
	g.skills.mu.Lock()
	if time.Since(g.skills.lastRefresh) >= skillFilesInterval {
		g.skills.lastRefresh = time.Now()
		g.skills.mu.Unlock()
		g.skills.manager.Refresh()
	} else {
		g.skills.mu.Unlock()
	}
	g.skills.manager.SetAvailable(toolNames(g.tools.ListAvailable(ctx)), toolNames(g.servers.ListAvailable(ctx)))
	return g.skills.manager
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

func toolNames(tools []Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}
