package soak

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// terraform runs the terraform CLI in the fleet's directory, each command
// with its output and its provider log (TF_LOG_PROVIDER=TRACE) in files of
// their own under logs/.
type terraform struct {
	bin, dir, logs string
	env            []string
	seq            int
}

// run is one terraform command.
type run struct {
	name     string
	code     int
	out, log string
	elapsed  time.Duration
	killed   string // what the soak killed during it, "" nothing
}

// trigger is a moment during a command: the nth provider log line holding
// line (then delay), or delay after the start when line is "".
type trigger struct {
	line  string
	nth   int
	delay time.Duration
	fire  func(p *procs) string // returns what it did, "" nothing
	// fired is closed once the trigger fired or can no longer fire; after
	// holds other triggers' fired channels to wait for first (a kill of the
	// apply waits for the night's other faults of the apply to strike).
	fired chan struct{}
	after []chan struct{}
}

// procs are the processes of one running terraform command.
type procs struct {
	terraform int
}

// providers returns the provider processes terraform started (its
// children named terraform-provider-*).
func (p *procs) providers() []int {
	var out []int
	for _, pid := range children(p.terraform) {
		comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		if err == nil && strings.HasPrefix(string(comm), "terraform-provi") {
			out = append(out, pid)
		}
	}
	return out
}

func children(pid int) []int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var out []int
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// exec runs terraform args, firing each trigger once when it comes. The
// exit code is the command's; an error means it could not run at all.
func (t *terraform) exec(ctx context.Context, name string, args []string, triggers ...trigger) (run, error) {
	t.seq++
	base := filepath.Join(t.logs, fmt.Sprintf("%03d-%s", t.seq, name))
	r := run{name: name, out: base + ".out", log: base + ".provider.log"}
	out, err := os.Create(r.out)
	if err != nil {
		return r, err
	}
	defer out.Close()
	fmt.Fprintf(out, "$ terraform %s\n", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, t.bin, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = t.dir, out, out
	cmd.Env = append(os.Environ(), t.env...)
	cmd.Env = append(cmd.Env, "TF_LOG_PROVIDER=TRACE", "TF_LOG_PATH="+r.log)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return r, err
	}
	p := &procs{terraform: cmd.Process.Pid}
	done := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, tr := range triggers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if tr.fired != nil {
				defer close(tr.fired)
			}
			if !tr.wait(done, r.log, start) {
				return
			}
			if what := tr.fire(p); what != "" {
				mu.Lock()
				r.killed = strings.TrimPrefix(r.killed+"; "+what, "; ")
				mu.Unlock()
				fmt.Fprintf(out, "\n### soak: %s at %.1fs\n", what, time.Since(start).Seconds())
			}
		}()
	}
	err = cmd.Wait()
	r.elapsed = time.Since(start)
	close(done)
	wg.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.code = 128 + int(ws.Signal())
		}
	default:
		return r, err
	}
	return r, nil
}

// wait blocks until the trigger's moment; false when the command ended
// first.
func (tr trigger) wait(done <-chan struct{}, log string, start time.Time) bool {
	for _, ch := range tr.after {
		select {
		case <-done:
			return false
		case <-ch:
		}
	}
	// Delay counts from the line, or from the start of the command.
	wait := tr.delay - time.Since(start)
	if tr.line != "" {
		if !tailFor(done, log, tr.line, tr.nth) {
			return false
		}
		wait = tr.delay
	}
	select {
	case <-done:
		return false
	case <-time.After(wait):
		return true
	}
}

// tailFor follows a growing log until its nth line containing s.
func tailFor(done <-chan struct{}, path, s string, nth int) bool {
	var f *os.File
	for f == nil {
		var err error
		if f, err = os.Open(path); err != nil {
			select {
			case <-done:
				return false
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	defer f.Close()
	rd := bufio.NewReader(f)
	seen := 0
	var partial string
	for {
		line, err := rd.ReadString('\n')
		partial += line
		if err == io.EOF {
			select {
			case <-done:
				return false
			case <-time.After(10 * time.Millisecond):
			}
			continue
		}
		if err != nil {
			return false
		}
		if strings.Contains(partial, s) {
			if seen++; seen == nth {
				return true
			}
		}
		partial = ""
	}
}

// kill sends SIGKILL to pid and reports it.
func kill(pid int, what string) string {
	if pid <= 0 || syscall.Kill(pid, syscall.SIGKILL) != nil {
		return ""
	}
	return fmt.Sprintf("SIGKILL %s (pid %d)", what, pid)
}

// reap waits up to grace for processes to exit by themselves, then kills
// them: a provider whose terraform died may still be finishing its apply.
func reap(pids []int, grace time.Duration) []string {
	deadline := time.Now().Add(grace)
	var killed []string
	for _, pid := range pids {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		if alive(pid) {
			killed = append(killed, kill(pid, "orphaned provider"))
		}
	}
	return killed
}

func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// A zombie (state Z) has exited; its parent is gone or has not reaped it.
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// compressLogs gzips the provider logs of the commands run so far (a
// month of TRACE logs is gigabytes). The checker scans logs for secrets
// before a night ends, and skips *.gz.
func (t *terraform) compressLogs() error {
	logs, err := filepath.Glob(filepath.Join(t.logs, "*.provider.log"))
	if err != nil {
		return err
	}
	for _, name := range logs {
		if err := gzipFile(name); err != nil {
			return err
		}
	}
	return nil
}

func gzipFile(name string) error {
	in, err := os.Open(name)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(name + ".gz")
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(out)
	if _, err := io.Copy(zw, in); err != nil {
		out.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Remove(name)
}
