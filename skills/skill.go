package skills

// Skill is one SKILL.md that loaded: enough of it to decide whether a model
// may be offered it, and to show it in the prompt. A Skill is not changed
// after Discover returns it; treat it as read-only.
type Skill struct {
	// Name is the frontmatter's name, trimmed; the folder's name when the
	// frontmatter has none (with a warning). Skills are keyed by it.
	Name string `json:"name"`
	// Description is the frontmatter's description, trimmed, as YAML reads
	// it (block scalars and folded lines included); never empty.
	Description string `json:"description"`
	// Path is the absolute path of the SKILL.md (or skill.md): the prompt's
	// <location>.
	Path string `json:"path"`
	// Dir is the skill's folder, the directory holding Path.
	Dir string `json:"dir"`
	// Root is the discovery path the skill was found under; "" when the
	// skill was parsed on its own.
	Root string `json:"root,omitempty"`
	// DisableModelInvocation is the Claude Code key
	// disable-model-invocation: such a skill is never in the prompt (a user
	// can still invoke it by name).
	DisableModelInvocation bool `json:"disable_model_invocation,omitempty"`
	// Lenient is true when the frontmatter was not valid YAML and was read
	// with the line parser; the warning of code CodeLenient says why.
	Lenient bool `json:"lenient,omitempty"`
	// Requirements is everything the skill needs, merged from every dialect
	// its frontmatter uses.
	Requirements Requirements `json:"requirements"`
	// OpenClawBlock names the metadata block OpenClaw requirements were read
	// from ("metadata.openclaw", or a legacy "metadata.clawdbot",
	// "metadata.clawdis", "metadata.moltbot"); "" when there is none.
	OpenClawBlock string `json:"openclaw_block,omitempty"`
	// Frontmatter is every top-level key, with every scalar as its source
	// text (version: 1.0 is "1.0", a date stays as written), lists as []any
	// and mappings as map[string]any: what a caller needs for keys this
	// package does not interpret (license, version, ...).
	Frontmatter map[string]any `json:"frontmatter"`
	// BodyLine is the line of SKILL.md where the instructions start, just
	// after the closing "---".
	BodyLine int `json:"body_line"`
	// Warnings are the problems found that did not stop the skill from
	// loading, in file order where they have a line.
	Warnings []Issue `json:"warnings,omitempty"`

	// file is where discovery found the file, links resolved: ReadFile
	// reads it there, following no link, so that what it reads is the
	// file discovery validated and not one swapped in since.
	file location
	// digest is the FNV-64a of the bytes discovery parsed; 0 for a skill
	// parsed on its own.
	digest uint64
}

// Digest tells two versions of a skill's file apart: the FNV-64a hash of
// the bytes of its SKILL.md that discovery read (the first
// 64 KiB and one byte), the same for the same bytes whichever
// discovery read them; 0 for a skill parsed on its own.
func (s *Skill) Digest() uint64 { return s.digest }

// location is a file as a folder and a path below it that holds no link.
type location struct{ root, rel string }

// Issue is one problem found in a SKILL.md.
type Issue struct {
	// Code says what kind of problem it is (the Code constants), for
	// callers that filter.
	Code string `json:"code"`
	// Line is the line of the SKILL.md it is about; 0 when there is none.
	Line int `json:"line,omitempty"`
	// Message says what is wrong and what was done about it.
	Message string `json:"message"`
}

// Issue codes.
const (
	// Skipping a file.
	CodeNoFrontmatter = "no-frontmatter" // no "---" block at the top
	CodeUnclosed      = "unclosed"       // no closing "---"
	CodeNoDescription = "no-description" // missing, empty or not text
	CodeUnreadable    = "unreadable"     // the file could not be read

	// Warnings on a skill that loaded.
	CodeLenient         = "lenient"          // invalid YAML, read with the line parser
	CodeDuplicateKey    = "duplicate-key"    // a key given twice; the last wins
	CodeNameMissing     = "name-missing"     // no name: the folder's name is used
	CodeNameFormat      = "name-format"      // not the agentskills name rule
	CodeNameFolder      = "name-folder"      // name differs from the folder's name
	CodeDescriptionLong = "description-long" // over 1024 characters
	CodeMetadata        = "metadata"         // metadata (or a block in it) unreadable
	CodeRequirement     = "requirement"      // a requirement key with a value of the wrong shape
)
