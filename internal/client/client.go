// Package client is Sluice's interactive SQL client: it reads statements,
// runs them on an engine and prints results in the SQL client's result
// modes (table, tableau, changelog), with Flink's messages.
package client

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/client/tableau"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// Client runs statements on an engine and prints their results.
type Client struct {
	Engine *sluice.Engine
	Out    io.Writer
	// Interactive enables prompts and the redrawn table view.
	Interactive bool
	// Interrupts delivers Ctrl-C presses; a running query stops on one.
	Interrupts <-chan os.Signal
}

const (
	prompt       = "Sluice SQL> "
	continuation = "> "
)

// Run reads statements from in until it ends or the user quits.
func (c *Client) Run(ctx context.Context, in io.Reader) error {
	r := bufio.NewReader(in)
	var buf strings.Builder
	if c.Interactive {
		fmt.Fprint(c.Out, prompt)
	}
	for {
		line, err := r.ReadString('\n')
		if line != "" {
			buf.WriteString(line)
			text := buf.String()
			if quit(text) {
				return nil
			}
			chunks := parser.SplitStatements(text)
			complete := len(chunks) > 0 && chunks[len(chunks)-1].Terminated
			if complete || strings.TrimSpace(stripComments(text)) == "" {
				if strings.TrimSpace(stripComments(text)) != "" {
					c.Execute(ctx, text)
				}
				buf.Reset()
				if c.Interactive {
					fmt.Fprint(c.Out, prompt)
				}
			} else if c.Interactive {
				fmt.Fprint(c.Out, continuation)
			}
		}
		if err == io.EOF {
			if strings.TrimSpace(stripComments(buf.String())) != "" {
				c.Execute(ctx, buf.String())
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func stripComments(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func quit(text string) bool {
	t := strings.ToUpper(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";")))
	return t == "QUIT" || t == "EXIT"
}

// Execute runs every statement of text and prints the outcomes; it returns
// false if a statement failed.
func (c *Client) Execute(ctx context.Context, text string) bool {
	stmts, err := parser.ParseScript(text)
	if err != nil {
		c.printError(err)
		return false
	}
	for _, st := range stmts {
		if err := c.executeOne(ctx, st, text); err != nil {
			c.printError(err)
			return false
		}
	}
	return true
}

func (c *Client) printError(err error) {
	fmt.Fprintf(c.Out, "[ERROR] Could not execute SQL statement. Reason:\n%v\n\n", err)
}

func (c *Client) executeOne(ctx context.Context, st ast.Statement, src string) error {
	res, err := c.Engine.ExecuteStatement(ctx, st, src)
	if err != nil {
		return err
	}
	switch res.Kind {
	case sluice.ResultOK:
		switch s := st.(type) {
		case *ast.Set:
			fmt.Fprint(c.Out, "[INFO] Session property has been set.\n\n")
		case *ast.Reset:
			if s.Key == "" {
				fmt.Fprint(c.Out, "[INFO] All session properties have been set to their default values.\n\n")
			} else {
				fmt.Fprint(c.Out, "[INFO] Session property has been reset.\n\n")
			}
		default:
			fmt.Fprint(c.Out, "[INFO] Execute statement succeed.\n\n")
		}
	case sluice.ResultTable:
		if err := tableau.PrintStatic(c.Out, res.Headers, res.Rows); err != nil {
			return err
		}
		fmt.Fprintln(c.Out)
	case sluice.ResultText:
		fmt.Fprintln(c.Out, res.Text)
	case sluice.ResultJob:
		fmt.Fprintf(c.Out, "[INFO] Submitting SQL update statement to the cluster...\n[INFO] SQL update statement has been successfully submitted to the cluster:\nJob ID: %s\n\n", res.JobID)
	case sluice.ResultStream:
		return c.show(ctx, res.Stream)
	}
	return nil
}

// view prints a query result in one of the result modes.
type view interface {
	start() error
	add(changes []sluice.Change) error
	// end finishes the view; interrupted is set when the user stopped it.
	end(n int, interrupted bool) error
}

func (c *Client) show(ctx context.Context, s *sluice.Stream) error {
	defer s.Close()
	var v view
	switch strings.ToLower(c.Engine.Config().Get(sluice.ConfResultMode)) {
	case "tableau":
		v = &tableauView{p: tableau.NewStreaming(c.Out, s.Schema, s.TimeZone)}
	case "changelog":
		v = &changelogView{p: tableau.NewChangelog(c.Out, s.Schema, s.TimeZone)}
	default:
		v = &tableView{w: c.Out, schema: s.Schema, loc: s.TimeZone, redraw: c.Interactive}
	}
	if err := v.start(); err != nil {
		return err
	}
	qctx, cancel := context.WithCancel(ctx)
	defer cancel()
	interrupted := make(chan struct{})
	go func() {
		select {
		case <-c.Interrupts:
			close(interrupted)
			cancel()
		case <-qctx.Done():
		}
	}()
	n := 0
	for {
		changes, ok, err := s.Next(qctx)
		if err != nil {
			select {
			case <-interrupted:
				return v.end(n, true)
			default:
			}
			if errors.Is(err, context.Canceled) {
				return v.end(n, true)
			}
			return err
		}
		if !ok {
			return v.end(n, false)
		}
		n += len(changes)
		if err := v.add(changes); err != nil {
			return err
		}
	}
}

type tableauView struct{ p *tableau.Streaming }

func (v *tableauView) start() error { return v.p.Header() }

func (v *tableauView) add(changes []sluice.Change) error {
	for _, ch := range changes {
		if err := v.p.Row(ch.Kind, ch.Row); err != nil {
			return err
		}
	}
	return nil
}

func (v *tableauView) end(n int, interrupted bool) error {
	if interrupted {
		return v.p.Interrupted(n)
	}
	return v.p.Footer(n)
}

type changelogView struct{ p *tableau.Changelog }

func (v *changelogView) start() error { return v.p.Header() }

func (v *changelogView) add(changes []sluice.Change) error {
	for _, ch := range changes {
		if err := v.p.Row(ch.Kind, ch.Row); err != nil {
			return err
		}
	}
	return nil
}

func (v *changelogView) end(int, bool) error { return nil }

// tableView materializes the changelog into the current result table, as
// the SQL client's table mode does, redrawing it on a terminal.
type tableView struct {
	w      io.Writer
	schema types.Schema
	loc    *time.Location
	rows   []types.Row
	redraw bool
	drawn  time.Time
}

func (v *tableView) start() error { return nil }

func (v *tableView) add(changes []sluice.Change) error {
	for _, ch := range changes {
		if ch.Kind.IsAccumulate() {
			v.rows = append(v.rows, ch.Row)
			continue
		}
		for i, r := range v.rows {
			if rowsEqual(r, ch.Row) {
				v.rows = append(v.rows[:i], v.rows[i+1:]...)
				break
			}
		}
	}
	if v.redraw && time.Since(v.drawn) > 100*time.Millisecond {
		v.drawn = time.Now()
		fmt.Fprint(v.w, "\033[H\033[2J")
		if err := tableau.PrintBatch(v.w, v.schema, v.rows, v.loc); err != nil {
			return err
		}
		fmt.Fprintln(v.w, "(Ctrl-C to return to the prompt)")
	}
	return nil
}

func (v *tableView) end(int, bool) error {
	if v.redraw {
		fmt.Fprint(v.w, "\033[H\033[2J")
	}
	return tableau.PrintBatch(v.w, v.schema, v.rows, v.loc)
}

func rowsEqual(a, b types.Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// NotifyInterrupts returns a channel of Ctrl-C presses that do not kill
// the process.
func NotifyInterrupts() <-chan os.Signal {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	return ch
}
