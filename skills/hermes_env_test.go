package skills

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/skillhost"
)

// hermesEnvDir holds real-world forms of Hermes' top-level
// required_environment_variables, one skill per folder.
var hermesEnvDir = filepath.Join("testdata", "hermes-env")

// TestRequirementsHermesEnvFiles reads each SKILL.md of hermesEnvDir and
// checks the variables it requires and the warnings, at their lines.
func TestRequirementsHermesEnvFiles(t *testing.T) {
	type warning struct {
		Line    int
		Message string
	}
	const prefix = "required_environment_variables: "
	for _, tc := range []struct {
		dir         string
		env         []string
		openClawEnv []string
		warnings    []warning
	}{
		{dir: "names", env: []string{"SCIMINER_API_KEY"}},
		{dir: "mappings", env: []string{"HOMELAB_GH_TOKEN", "HOMELAB_REPO_OWNER"}},
		{dir: "mixed", env: []string{"TELEGRAM_BOT_TOKEN", "TELEGRAM_CHAT_ID", "TELEGRAM_THREAD_ID"}},
		{dir: "malformed", env: []string{"GOOD_BEFORE", "GOOD_AFTER"}, warnings: []warning{
			{6, prefix + "item 2 has no name: ignored"},
			{8, prefix + "the name of item 3 is a number, not text: ignored"},
			{9, prefix + "the name of item 4 is empty: ignored"},
			{10, prefix + "the name of item 5 is null, not text: ignored"},
			{11, prefix + "the name of item 6 is a list, not text: ignored"},
			{12, prefix + "item 7 is a list, not a name or a mapping with a name: ignored"},
		}},
		// requires_env comes first (PraisonAI, then Hermes); each name once.
		{dir: "with-requires-env", env: []string{"API_KEY", "API_URL", "API_REGION"}},
		// SHARED_TOKEN is declared by Hermes too, so always: true checks it.
		{dir: "openclaw-always", env: []string{"OC_ONLY", "SHARED_TOKEN"}, openClawEnv: []string{"OC_ONLY"}},
		{dir: "single-mapping", env: []string{"TENOR_API_KEY"}},
		{dir: "not-a-list", warnings: []warning{
			{4, "required_environment_variables is a number, not a list of names or of mappings with a name: ignored"},
		}},
		{dir: "lenient", env: []string{"LENIENT_TOKEN"}, warnings: []warning{
			{3, "invalid YAML at line 3 (mapping values are not allowed in this context): read with the key: value line parser"},
			{7, prefix + "item 2 has no name: ignored"},
		}},
		{dir: "empty-list"},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			path := filepath.Join(hermesEnvDir, tc.dir, "SKILL.md")
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			s, rep := parseSkill(path, data, parseOptions{})
			require.Nil(t, rep, "skipped: %v", rep)
			assert.Equal(t, tc.dir, s.Name)
			assert.Equal(t, tc.env, s.Requirements.Env)
			assert.Equal(t, tc.openClawEnv, s.Requirements.OpenClawEnv)
			var got []warning
			for _, w := range s.Warnings {
				assert.Contains(t, []string{CodeRequirement, CodeLenient}, w.Code)
				got = append(got, warning{w.Line, w.Message})
			}
			assert.Equal(t, tc.warnings, got)
		})
	}
}

// TestRequirementsHermesEnvForms covers the forms no real file in
// hermesEnvDir uses, inline.
func TestRequirementsHermesEnvForms(t *testing.T) {
	for _, tc := range []struct {
		value string
		env   []string
		warn  string
	}{
		{`"A B,C"`, []string{"A", "B", "C"}, ""}, // a string, as every list
		{`~`, nil, ""},
		{``, nil, ""},
		{`[A, A, {name: A}]`, []string{"A"}, ""},
		{`[{name: " A "}]`, []string{"A"}, ""},
		{`[{env_var: A}]`, nil, "required_environment_variables: item 1 has no name: ignored"},
		{`[{name: {x: y}}]`, nil, "required_environment_variables: the name of item 1 is a mapping, not text: ignored"},
		{`true`, nil, "required_environment_variables is a boolean, not a list of names or of mappings with a name: ignored"},
		{`[1, true]`, []string{"1", "true"}, ""}, // scalars as written, as in every list
	} {
		s := mustParse(t, "test-skill", frontmatter("required_environment_variables: "+tc.value))
		assert.Equal(t, tc.env, s.Requirements.Env, tc.value)
		if tc.warn == "" {
			assert.Empty(t, s.Warnings, tc.value)
			continue
		}
		if assert.Len(t, s.Warnings, 1, tc.value) {
			assert.Equal(t, tc.warn, s.Warnings[0].Message, tc.value)
			assert.Equal(t, 4, s.Warnings[0].Line, tc.value)
		}
	}

	// An alias to a list of mappings, and one to a nameless mapping.
	s := mustParse(t, "test-skill", frontmatter(
		"x-vars: &vars [{name: ALIASED}]",
		"x-bad: &bad {prompt: none}",
		"required_environment_variables: [*vars, *bad]",
	))
	assert.Empty(t, s.Requirements.Env, "a list inside the list is no name")
	require.Len(t, s.Warnings, 2)
	assert.Equal(t, "required_environment_variables: item 1 is a list, not a name or a mapping with a name: ignored", s.Warnings[0].Message)
	assert.Equal(t, "required_environment_variables: item 2 has no name: ignored", s.Warnings[1].Message)
	assert.Equal(t, []int{6, 6}, []int{s.Warnings[0].Line, s.Warnings[1].Line}, "the alias's line, not its anchor's")
	assert.Equal(t, []string{"ALIASED"}, reqOf(t, "x: &v [{name: ALIASED}]", "required_environment_variables: *v").Env)
}

// TestValidateHermesEnv: a missing variable of required_environment_variables
// is a warning like requires_env's (DEGRADED, not critical, so a fallback
// skill is still offered), an error in strict mode, and always: true does
// not skip what Hermes declares.
func TestValidateHermesEnv(t *testing.T) {
	host := skillhost.Map{Env: map[string]string{"HOMELAB_GH_TOKEN": "ghp", "OC_ONLY": ""}, GOOS: "linux"}
	read := func(dir string) *Skill {
		path := filepath.Join(hermesEnvDir, dir, "SKILL.md")
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		s, rep := parseSkill(path, data, parseOptions{})
		require.Nil(t, rep)
		return s
	}

	r := validator(LevelWarn, host).Validate("mappings", &read("mappings").Requirements, availability{})
	assert.Equal(t, StateDegraded, r.State)
	assert.Equal(t, []string{"HOMELAB_GH_TOKEN"}, r.SatisfiedEnvVars)
	assert.Equal(t, []string{"HOMELAB_REPO_OWNER"}, r.MissingEnvVars)
	assert.Equal(t, []string{"Missing required environment variables: HOMELAB_REPO_OWNER"}, r.Warnings)
	assert.False(t, r.HasCriticalMissing)

	strict := validator(LevelStrict, host).Validate("mappings", &read("mappings").Requirements, availability{})
	assert.Equal(t, StateUnavailable, strict.State)
	assert.Equal(t, []string{"Missing required environment variables: HOMELAB_REPO_OWNER"}, strict.Errors)

	r = validator(LevelWarn, host).Validate("openclaw-always", &read("openclaw-always").Requirements, availability{})
	assert.Equal(t, []string{"SHARED_TOKEN"}, r.MissingEnvVars, "OC_ONLY is skipped, SHARED_TOKEN is Hermes' too")

	fallback := mustParse(t, "fb", skillText("fb", "d", "fallback_for_tools: [web_search]", "required_environment_variables: [NOT_SET]"))
	m := NewManager(newCatalog(fallback), ManagerOptions{Host: host})
	require.Len(t, m.Offered(), 1, "a fallback missing only a variable is offered outside strict mode")
	m = NewManager(newCatalog(fallback), ManagerOptions{Level: LevelStrict, Host: host})
	assert.Empty(t, m.Offered())
}
