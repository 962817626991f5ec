package skills

import (
	"os"
	"path/filepath"

	"github.com/gate-dev/gate/internal/safefile"
)

// maxSkillFileBytes caps a SKILL.md that ReadFile reads whole: 1 MiB, far
// above any real skill's instructions, and what one model turn could take.
const maxSkillFileBytes = 1 << 20

// ReadFile reads the skill's SKILL.md now (it may have changed since it
// was parsed) where discovery found it: below its discovery path (or,
// with FollowOutsideLinks, below the folder a followed link led to), with
// no symbolic link followed on the way, as a regular file of at most
// 1 MiB. A file swapped for a link since, or a folder swapped
// for one, is refused rather than followed out of the skill paths. A
// skill parsed on its own, with no discovery path, is read in its folder, the file
// itself not a link.
func (s *Skill) ReadFile() ([]byte, error) {
	loc := s.file
	if loc.root == "" {
		loc = location{root: filepath.Dir(s.Path), rel: filepath.Base(s.Path)}
	}
	return safefile.ReadBeneath(loc.root, loc.rel, maxSkillFileBytes)
}

// openFile opens a skill file found by discovery as ReadFile reads it.
func openFile(loc location) (*os.File, os.FileInfo, error) {
	return safefile.OpenBeneath(loc.root, loc.rel)
}

// locate returns where to read a file whose path with links resolved is
// real, found under a discovery path whose own is rootReal ("" when the
// discovery path is the file itself): below the discovery path when it
// lies there, else below its own folder.
func locate(real, rootReal string) location {
	if rootReal != "" && within(real, rootReal) && real != rootReal {
		if rel, err := filepath.Rel(rootReal, real); err == nil {
			return location{root: rootReal, rel: rel}
		}
	}
	return location{root: filepath.Dir(real), rel: filepath.Base(real)}
}
