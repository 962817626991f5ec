package skills_test

import (
	"fmt"

	"github.com/gate-dev/gate/skills"
)

// Parse a SKILL.md held in memory and validate it against what the agent
// has now.
func ExampleParseSkill() {
	src := `---
name: web-via-terminal
description: Fetch the web via terminal when no web tool is available.
requires_tools: [terminal]
fallback_for_tools: [web_search]
metadata:
  openclaw:
    requires:
      bins: [curl]
---
# Web via terminal
When asked to fetch a URL, use curl through the terminal tool.
`
	s, skipped := skills.ParseSkill("/skills/web-via-terminal/SKILL.md", []byte(src), skills.ParseOptions{})
	if skipped != nil {
		fmt.Println("skipped:", skipped)
		return
	}
	fmt.Println(s.Name, s.Requirements.Tools, s.Requirements.Bins, s.Requirements.FallbackForTools)

	v := skills.Validator{
		Level: skills.LevelStrict,
		Host:  skills.MapHost{Bins: []string{"curl"}, GOOS: "linux"},
	}
	r := v.Validate(s.Name, &s.Requirements, skills.Available{Tools: skills.NewSet("web_search")})
	fmt.Println(r.State, r.Errors)
	r = v.Validate(s.Name, &s.Requirements, skills.Available{Tools: skills.NewSet("terminal")})
	fmt.Println(r.State, r.SatisfiedTools, r.SatisfiedBins)
	// Output:
	// web-via-terminal [terminal] [curl] [web_search]
	// unavailable [Missing required tools: terminal]
	// active [terminal] [curl]
}

// Build the prompt of the skills a model may be offered: the fallback
// skill shows only while the tool it stands in for is absent.
func ExampleManager_Prompt() {
	parse := func(path, src string) *skills.Skill {
		s, _ := skills.ParseSkill(path, []byte(src), skills.ParseOptions{})
		return s
	}
	cat := skills.NewCatalog(
		parse("/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Read <PDF> & OCR files\nrequires_tools: pdf_read\n---\n"),
		parse("/skills/web-via-terminal/SKILL.md", "---\nname: web-via-terminal\ndescription: Fetch the web with curl\n"+
			"requires_tools: [terminal]\nfallback_for_tools: [web_search]\n---\n"),
	)
	m := skills.NewManager(cat, skills.ManagerOptions{
		Level: skills.LevelStrict,
		Host:  skills.MapHost{GOOS: "linux"},
	})

	m.SetAvailable([]string{"pdf_read", "terminal"}, nil)
	fmt.Println(m.Prompt())

	m.SetAvailable([]string{"pdf_read", "terminal", "web_search"}, nil)
	fmt.Println(len(m.SkillsByState(skills.StateActive)), "active;", len(m.Offered()), "offered")
	// Output:
	// <available_skills>
	//   <skill>
	//     <name>pdf</name>
	//     <description>Read &lt;PDF&gt; &amp; OCR files</description>
	//     <location>/skills/pdf/SKILL.md</location>
	//   </skill>
	//   <skill>
	//     <name>web-via-terminal</name>
	//     <description>Fetch the web with curl</description>
	//     <location>/skills/web-via-terminal/SKILL.md</location>
	//   </skill>
	// </available_skills>
	// 2 active; 1 offered
}

// Read the enforcement level from the environment, as PraisonAI does, but
// hear about a typo instead of silently getting "warn".
func ExampleLevelFromEnv() {
	env := map[string]string{"SKILL_CAPABILITY_ENFORCEMENT": "stirct"}
	level, warning := skills.LevelFromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	fmt.Println(level)
	fmt.Println(warning)
	// Output:
	// warn
	// SKILL_CAPABILITY_ENFORCEMENT="stirct" is not an enforcement level (accepted: disabled|off, telemetry|log, warn|warning, strict|hard|fail): using warn
}
