package skills_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gate-dev/gate/skills"
)

// linuxHost is a Linux machine with no environment variables and no
// binaries: the Host a Manager asks about them.
type linuxHost struct{}

func (linuxHost) LookupEnv(string) (string, bool) { return "", false }
func (linuxHost) HasBinary(string) bool           { return false }
func (linuxHost) OS() string                      { return "linux" }

// Build the prompt of the skills a model may be offered: the fallback
// skill shows only while the tool it stands in for is absent.
func ExampleManager_Prompt() {
	dir, err := os.MkdirTemp("", "skills")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	write := func(name, src string) {
		_ = os.Mkdir(filepath.Join(dir, name), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name, "SKILL.md"), []byte(src), 0o644); err != nil {
			panic(err)
		}
	}
	write("pdf", "---\nname: pdf\ndescription: Read <PDF> & OCR files\nrequires_tools: pdf_read\n---\n")
	write("web-via-terminal", "---\nname: web-via-terminal\ndescription: Fetch the web with curl\n"+
		"requires_tools: [terminal]\nfallback_for_tools: [web_search]\n---\n")
	cat := skills.Discover([]string{dir}, skills.DiscoverOptions{})
	m := skills.NewManager(cat, skills.ManagerOptions{
		Level: skills.LevelStrict,
		Host:  linuxHost{},
	})

	m.SetAvailable([]string{"pdf_read", "terminal"}, nil)
	fmt.Println(strings.ReplaceAll(m.Prompt(), cat.Roots[0], "/skills"))

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
