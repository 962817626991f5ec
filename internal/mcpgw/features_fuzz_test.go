package mcpgw

import (
	"encoding/json"
	"testing"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"
)

// FuzzCheckFeatures: whatever an upstream lists as a resource, resource
// template or prompt, checking it never panics, and either hides it with
// why or offers an entry whose name and text hold no character
// safetext's rule refuses, within the entry cap; an offered template's
// expansion is matched by the expression gate routes reads with, and
// checking what is offered again offers the same.
func FuzzCheckFeatures(f *testing.F) {
	f.Add("file:///docs/a.txt", "a", "Doc a.", "file:///docs/{name}.md", "x")
	f.Add("", "", "", "", "")
	f.Add("gate://skills/prompt", "n\u200b", "d\u202e", "file:///{+path}{?q,r}", "weird")
	f.Add("no scheme", "a", "", "{", "é")
	f.Add("x:y", "\x00", "\u3164", "demo://r/{id}/{id}", "1")
	f.Fuzz(func(t *testing.T, uri, name, desc, tmpl, value string) {
		r := checkResource(&mcp.Resource{URI: uri, Name: name, Title: desc, Description: desc})
		if r.invalid == "" {
			if r.res == nil || len(r.def) > maxToolBytes || r.res.URI != uri || r.res.Name != name {
				t.Fatalf("resource offered wrong: %+v", r)
			}
			if safetext.IndexRefused(r.res.Name, false) >= 0 || safetext.IndexRefused(r.res.Description, true) >= 0 || safetext.IndexRefused(r.res.Title, false) >= 0 {
				t.Fatalf("resource text not clean: %+v", r.res)
			}
			if again := checkResource(r.res); again.invalid != "" || string(again.def) != string(r.def) {
				t.Fatalf("checking it again changed it: %q", again.invalid)
			}
		}
		lt := checkTemplate(&mcp.ResourceTemplate{URITemplate: tmpl, Name: name, Description: desc}, nil)
		if lt.invalid == "" {
			if lt.tmpl == nil || lt.match == nil || safetext.IndexRefused(lt.tmpl.Description, true) >= 0 {
				t.Fatalf("template offered wrong: %+v", lt)
			}
			if tp, err := uritemplate.New(tmpl); err == nil {
				vals := uritemplate.Values{}
				for _, v := range tp.Varnames() {
					vals.Set(v, uritemplate.String(value))
				}
				// A plain value (what a template's variables mostly
				// hold) expanded is a URI that routes to the template.
				if exp, err := tp.Expand(vals); err == nil && plain(value) && !matches(lt.match, exp) {
					t.Fatalf("the expansion %q of %q is not matched", exp, tmpl)
				}
			}
		}
		p := checkPrompt(&mcp.Prompt{Name: name, Description: desc, Arguments: []*mcp.PromptArgument{{Name: value, Description: desc}}})
		if p.invalid == "" {
			var back mcp.Prompt
			if err := json.Unmarshal(p.def, &back); err != nil || back.Name != name {
				t.Fatalf("prompt def does not read back: %v", err)
			}
			if safetext.IndexRefused(p.prompt.Arguments[0].Description, true) >= 0 {
				t.Fatalf("argument text not clean: %q", p.prompt.Arguments[0].Description)
			}
		}
	})
}

func plain(s string) bool {
	for _, c := range s {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

func matches(m *uriMatcher, uri string) bool {
	ok, _ := m.match(uri, &matchScratch{}, &matchBudget{left: 1 << 24})
	return ok
}
