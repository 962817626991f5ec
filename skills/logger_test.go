package skills

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/logtest"
	"github.com/gate-dev/gate/internal/skillhost"
)

// TestLogsOnlyToTheLoggerGiven: a skillValidator or a Manager given no logger
// logs nothing, not even to slog.Default (which is the application's);
// given one, the same validations are logged there.
func TestLogsOnlyToTheLoggerGiven(t *testing.T) {
	degraded := skillOf(t, "e", "requires_env: [TOKEN]")
	host := skillhost.Map{Env: map[string]string{}, GOOS: "linux"}
	for _, tc := range []struct {
		name     string
		validate func(t *testing.T, logger *slog.Logger)
	}{
		{"validator", func(t *testing.T, logger *slog.Logger) {
			r := skillValidator{Host: host, Logger: logger}.Validate(degraded.Name, &degraded.Requirements, availability{})
			require.Equal(t, StateDegraded, r.State)
		}},
		{"Manager", func(t *testing.T, logger *slog.Logger) {
			m := NewManager(newCatalog(degraded), ManagerOptions{Host: host, Logger: logger})
			r, err := m.Result("e", false)
			require.NoError(t, err)
			require.Equal(t, StateDegraded, r.State)
		}},
	} {
		t.Run(tc.name+"/no logger", func(t *testing.T) {
			fallback, _ := newRecorder()
			logtest.UseDefault(t, slog.New(fallback))
			tc.validate(t, nil)
			assert.Empty(t, fallback.Lines(), "nothing goes to slog.Default")
		})
		t.Run(tc.name+"/a logger", func(t *testing.T) {
			fallback, _ := newRecorder()
			logtest.UseDefault(t, slog.New(fallback))
			own, logger := newRecorder()
			tc.validate(t, logger)
			assert.Empty(t, fallback.Lines(), "nothing goes to slog.Default")
			assert.Equal(t, []string{"WARN Skill 'e' partially available: Missing required environment variables: TOKEN"}, own.Lines())
		})
	}
}
