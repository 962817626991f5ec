package mcpgw

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/skills"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The skills' resources and prompt. The prompt resource is the
// <available_skills> block gatectl and /v1/skills/prompt give; each
// offered skill's SKILL.md is a resource of its own, which is what a model
// reads when it chooses the skill.
const (
	SkillsPromptURI = "gate://skills/prompt"
	skillURIPrefix  = "gate://skills/"
	skillURISuffix  = "/SKILL.md"
	// SkillsPromptName is the MCP prompt that returns the skills prompt.
	SkillsPromptName = "skills"
)

// SkillURI is the resource URI of a skill's SKILL.md.
func SkillURI(name string) string { return skillURIPrefix + name + skillURISuffix }

// skillState is what the MCP server offers of the skills now.
type skillState struct {
	on     bool                    // the prompt resource and prompt are added
	skills map[string]offeredSkill // offered skills, by name
	prompt string
}

// offeredSkill is what a skill's resource shows, and which bytes of its
// file were read: a new digest is a changed SKILL.md.
type offeredSkill struct {
	description string
	path        string
	digest      uint64
}

// syncSkills makes the skill resources offered those of the skills
// offered now (with the upstreams' resources and prompts, computed here
// after the tools), and tells the sessions that subscribed of each resource
// whose content changed (notifications/resources/updated): the prompt's,
// and each SKILL.md that changed while it stayed offered. Resources and
// the prompt appear only when the manifest has skills.
func (g *Gateway) syncSkills(ctx context.Context) {
	m := g.svc.Gate().Skills(ctx)
	next := skillState{skills: map[string]offeredSkill{}}
	if m != nil {
		next.on = true
		for _, sk := range m.Offered() {
			next.skills[sk.Name] = offeredSkill{description: safetext.Clean(sk.Description, true), path: sk.Path, digest: sk.Digest()}
		}
		next.prompt = m.Prompt()
	}
	g.mu.Lock()
	prev := g.skills
	g.skills = next
	g.mu.Unlock()

	// The skills' resources and prompt are offered with the upstreams'
	// (featureoffer.go), which sends the list_changed of each change.
	g.computeFeatures()
	var updated []string
	for _, n := range slices.Sorted(maps.Keys(next.skills)) {
		cur := next.skills[n]
		old, had := prev.skills[n]
		if had && (old.path != cur.path || old.digest != cur.digest) {
			updated = append(updated, SkillURI(n))
		}
	}
	if prev.on && next.on && prev.prompt != next.prompt {
		updated = append(updated, SkillsPromptURI)
	}
	for _, uri := range updated {
		_ = g.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
	}
}

// subscribe accepts a subscription to a resource gate offers now: the
// skills prompt, an offered skill's SKILL.md, or an upstream's resource
// (subscribeUpstream).
func (g *Gateway) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	if gateURI(uri) {
		g.mu.Lock()
		defer g.mu.Unlock()
		if uri == SkillsPromptURI && g.skills.on {
			return nil
		}
		if name, ok := skillName(uri); ok {
			if _, offered := g.skills.skills[name]; offered {
				return nil
			}
		}
		return resourceNotFound(uri)
	}
	return g.subscribeUpstream(ctx, req)
}

// skillName returns the skill a SKILL.md resource URI names.
func skillName(uri string) (string, bool) {
	name, ok := strings.CutPrefix(uri, skillURIPrefix)
	name, ok2 := strings.CutSuffix(name, skillURISuffix)
	return name, ok && ok2 && name != ""
}

func (g *Gateway) readPrompt(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI: SkillsPromptURI, MIMEType: "text/plain", Text: g.svc.Gate().SkillsPrompt(ctx),
	}}}, nil
}

func (g *Gateway) getPrompt(ctx context.Context, _ *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	text := g.svc.Gate().SkillsPrompt(ctx)
	if text == "" {
		text = "No skill can be used now."
	}
	return &mcp.GetPromptResult{
		Description: "The skills the model may use now.",
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
	}, nil
}

// readSkill answers a skill's SKILL.md, read now (it may have changed
// since it was validated) where discovery found it, following no link
// (Skill.ReadFile: a file or folder swapped for a link out of the skill
// paths is refused), as a regular file with a cap, and cleaned by
// safetext's rule, so that no text hides from a person reading along.
func (g *Gateway) readSkill(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, ok := skillName(uri)
	if !ok {
		return nil, resourceNotFound(uri)
	}
	m := g.svc.Gate().Skills(ctx)
	var sk *skills.Skill
	if m != nil {
		for _, s := range m.Offered() {
			if s.Name == name {
				sk = s
			}
		}
	}
	if sk == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("skill %s is not offered now", quote(name))}
	}
	b, err := sk.ReadFile()
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("skill %s: %s", quote(name), safetext.Clean(err.Error(), false))}
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
		URI: uri, MIMEType: "text/markdown", Text: safetext.Clean(string(b), true),
	}}}, nil
}
