package sdk

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestErrorsAreDistinct(t *testing.T) {
	all := []*Error{ErrNotSet, ErrNotFound, ErrDenied, ErrRefused, ErrTimeout, ErrUnreachable, ErrBadAddress, ErrUnknownScheme}
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
