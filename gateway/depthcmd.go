package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fitCommand is the SDK v1.8.0's mcp.CommandTransport with the command's
// output read through fitLines: the SDK's transport reads the pipe itself
// and leaves no place to fit what it reads. Closing it closes the
// command's stdin, then sends SIGTERM once terminate has passed, then
// SIGKILL, as the SDK's does.
type fitCommand struct {
	cmd       *exec.Cmd
	terminate time.Duration
}

func (t *fitCommand) Connect(ctx context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.cmd.Start(); err != nil {
		return nil, err
	}
	return (&mcp.IOTransport{
		Reader: io.NopCloser(fitLines(stdout)), // the connection closes by stdin
		Writer: &commandInput{stdin, t.cmd, t.terminate},
	}).Connect(ctx)
}

// commandInput is the command's stdin; Close ends the command.
type commandInput struct {
	io.WriteCloser
	cmd       *exec.Cmd
	terminate time.Duration
}

func (c *commandInput) Close() error {
	if err := c.WriteCloser.Close(); err != nil {
		return fmt.Errorf("closing stdin: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.cmd.Wait() }()
	wait := func() (error, bool) {
		select {
		case err := <-exited:
			return err, true
		case <-time.After(c.terminate):
			return nil, false
		}
	}
	if err, ok := wait(); ok {
		return err
	}
	if c.cmd.Process.Signal(syscall.SIGTERM) == nil {
		if err, ok := wait(); ok {
			return err
		}
	}
	if err := c.cmd.Process.Kill(); err != nil {
		return err
	}
	if err, ok := wait(); ok {
		return err
	}
	return errors.New("unresponsive subprocess")
}
