package skills

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// useDefaultLogger makes l slog's default logger until the test ends.
// The tests of this package do not run in parallel, so none of them logs
// to it meanwhile.
func useDefaultLogger(t *testing.T, l *slog.Logger) {
	t.Helper()
	old := slog.Default()
	slog.SetDefault(l)
	t.Cleanup(func() { slog.SetDefault(old) })
}

// TestLogsOnlyToTheLoggerGiven: a Validator or a Manager given no logger
// logs nothing, not even to slog.Default (which is the application's);
// given one, the same validations are logged there.
func TestLogsOnlyToTheLoggerGiven(t *testing.T) {
	degraded := skillOf(t, "e", "requires_env: [TOKEN]")
	host := MapHost{Env: map[string]string{}, GOOS: "linux"}
	for _, tc := range []struct {
		name     string
		validate func(t *testing.T, logger *slog.Logger)
	}{
		{"Validator", func(t *testing.T, logger *slog.Logger) {
			r := Validator{Host: host, Logger: logger}.Validate(degraded.Name, &degraded.Requirements, Available{})
			require.Equal(t, StateDegraded, r.State)
		}},
		{"Manager", func(t *testing.T, logger *slog.Logger) {
			m := NewManager(NewCatalog(degraded), ManagerOptions{Host: host, Logger: logger})
			r, err := m.Result("e", false)
			require.NoError(t, err)
			require.Equal(t, StateDegraded, r.State)
		}},
	} {
		t.Run(tc.name+"/no logger", func(t *testing.T) {
			fallback, _ := newRecorder()
			useDefaultLogger(t, slog.New(fallback))
			tc.validate(t, nil)
			assert.Empty(t, fallback.Lines(), "nothing goes to slog.Default")
		})
		t.Run(tc.name+"/a logger", func(t *testing.T) {
			fallback, _ := newRecorder()
			useDefaultLogger(t, slog.New(fallback))
			own, logger := newRecorder()
			tc.validate(t, logger)
			assert.Empty(t, fallback.Lines(), "nothing goes to slog.Default")
			assert.Equal(t, []string{"WARN Skill 'e' partially available: Missing required environment variables: TOKEN"}, own.Lines())
		})
	}
}
