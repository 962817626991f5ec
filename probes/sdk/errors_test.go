package sdk

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorsAreDistinct(t *testing.T) {
	all := []*Error{ErrNotSet, ErrNotFound, ErrDenied, ErrRefused, ErrTimeout, ErrUnreachable, ErrBadAddress, ErrUnknownScheme,
		ErrBadRequest, ErrLimit, ErrTLS, ErrClosed, ErrBadHandle, ErrNotTLS}
	for i, a := range all {
		assert.Negative(t, a.Status, a.Error())
		for j, b := range all {
			// Statuses repeat across functions (-1, -6) but meanings don't.
			assert.Equal(t, i == j, errors.Is(a, b), "errors.Is(%v, %v)", a, b)
		}
	}
}

func TestStatusError(t *testing.T) {
	for _, tc := range []struct {
		status int32
		known  []*Error
		want   error
		text   string
	}{
		{-1, []*Error{ErrNotSet, ErrDenied}, ErrNotSet, "not set"},
		{-2, []*Error{ErrNotSet, ErrDenied}, ErrDenied, "denied"},
		{-1, []*Error{ErrNotFound, ErrDenied, ErrUnknownScheme}, ErrNotFound, "not found"},
		{-6, []*Error{ErrNotFound, ErrDenied, ErrUnknownScheme}, ErrUnknownScheme, "unknown scheme"},
		{-6, []*Error{ErrDenied, ErrRefused, ErrTimeout, ErrUnreachable, ErrBadAddress}, ErrBadAddress, "bad address"},
		{-3, []*Error{ErrDenied, ErrRefused, ErrTimeout, ErrUnreachable, ErrBadAddress}, ErrRefused, "connection refused"},
		{-4, []*Error{ErrDenied, ErrRefused, ErrTimeout, ErrUnreachable, ErrBadAddress}, ErrTimeout, "timed out"},
		{-5, []*Error{ErrDenied, ErrRefused, ErrTimeout, ErrUnreachable, ErrBadAddress}, ErrUnreachable, "unreachable or name not resolved"},
	} {
		err := statusError(tc.status, tc.known...)
		assert.ErrorIs(t, err, tc.want)
		assert.ErrorIs(t, fmt.Errorf("wrapped: %w", err), tc.want)
		assert.EqualError(t, err, tc.text)
	}

	// A status from a newer host: still an *Error, equal to its own kind.
	err := statusError(-9, ErrDenied)
	assert.EqualError(t, err, "status -9")
	var e *Error
	if assert.ErrorAs(t, err, &e) {
		assert.Equal(t, int32(-9), e.Status)
	}
	assert.ErrorIs(t, err, statusError(-9))
	assert.NotErrorIs(t, err, ErrDenied)
}

// Each v2 call's statuses, as docs/ABI.md lists them, map to one error
// each, wrapped with the host's words so that errors.Is still sees it.
func TestCallErrors(t *testing.T) {
	for _, tc := range []struct {
		call   string
		known  []*Error
		status int32
		want   *Error
	}{
		{"connect", connectErrors, -2, ErrDenied},
		{"connect", connectErrors, -3, ErrRefused},
		{"connect", connectErrors, -4, ErrTimeout},
		{"connect", connectErrors, -5, ErrUnreachable},
		{"connect", connectErrors, -6, ErrBadAddress},
		{"connect", connectErrors, -7, ErrLimit},
		{"connect", connectErrors, -8, ErrTLS},
		{"send", sendErrors, -1, ErrNotSet},
		{"send", sendErrors, -2, ErrDenied},
		{"send", sendErrors, -4, ErrTimeout},
		{"send", sendErrors, -7, ErrLimit},
		{"send", sendErrors, -9, ErrClosed},
		{"send", sendErrors, -10, ErrBadHandle},
		{"recv", recvErrors, -4, ErrTimeout},
		{"recv", recvErrors, -7, ErrLimit},
		{"recv", recvErrors, -9, ErrClosed},
		{"recv", recvErrors, -10, ErrBadHandle},
		{"http", httpErrors, -1, ErrNotSet},
		{"http", httpErrors, -2, ErrDenied},
		{"http", httpErrors, -3, ErrRefused},
		{"http", httpErrors, -4, ErrTimeout},
		{"http", httpErrors, -5, ErrUnreachable},
		{"http", httpErrors, -6, ErrBadRequest},
		{"http", httpErrors, -7, ErrLimit},
		{"http", httpErrors, -8, ErrTLS},
		{"http", httpErrors, -9, ErrClosed},
		{"close", handleErrors, -10, ErrBadHandle},
		{"tls", tlsErrors, -1, ErrNotTLS},
		{"tls", tlsErrors, -10, ErrBadHandle},
	} {
		t.Run(fmt.Sprintf("%s %d", tc.call, tc.status), func(t *testing.T) {
			err := error(&CallError{Err: statusError(tc.status, tc.known...), Detail: "the host's words"})
			assert.ErrorIs(t, err, tc.want)
			assert.ErrorIs(t, fmt.Errorf("%s: %w", tc.call, err), tc.want)
			assert.EqualError(t, err, tc.want.Error()+" (the host's words)")
			var ce *CallError
			require.ErrorAs(t, err, &ce)
			assert.Equal(t, tc.status, ce.Err.(*Error).Status)
		})
	}
	// Every call lists each status once: two errors for one status would
	// make the mapping depend on their order.
	for name, known := range map[string][]*Error{"connect": connectErrors, "send": sendErrors, "recv": recvErrors, "http": httpErrors, "tls": tlsErrors} {
		seen := map[int32]bool{}
		for _, e := range known {
			assert.False(t, seen[e.Status], "%s lists status %d twice", name, e.Status)
			seen[e.Status] = true
		}
	}
	// No detail: just the status.
	assert.EqualError(t, &CallError{Err: ErrTLS}, "TLS failed")
	// A status the SDK does not know still unwraps to an *Error.
	err := &CallError{Err: statusError(-11, recvErrors...), Detail: "new"}
	assert.EqualError(t, err, "status -11 (new)")
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, int32(-11), e.Status)
}

// TestAnswersMatchGateH: the Go SDK's answers are the C SDK's, number for
// number, as gate.h defines them.
func TestAnswersMatchGateH(t *testing.T) {
	h, err := os.ReadFile(filepath.Join("..", "include", "gate.h"))
	require.NoError(t, err)
	for name, want := range map[string]int32{"GATE_AVAILABLE": Available, "GATE_UNAVAILABLE": Unavailable, "GATE_ERROR": Failed} {
		m := regexp.MustCompile(`(?m)^#define ` + name + ` (\d+)`).FindSubmatch(h)
		require.NotNil(t, m, "gate.h defines no %s", name)
		assert.Equal(t, string(m[1]), strconv.Itoa(int(want)), name)
	}
}
