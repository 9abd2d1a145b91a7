// Package servertest is a small client of Flink's SQL Gateway REST API for
// tests: it opens sessions, runs statements and follows result tokens,
// returning the JSON it was sent.
package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Client talks to one endpoint.
type Client struct {
	// Base is the endpoint's URL, without a trailing slash.
	Base string
	// Token, when set, is sent as a bearer token.
	Token string
}

// Response is one answer: its status, its body and the body decoded.
type Response struct {
	Status int
	Body   []byte
	JSON   map[string]any
}

// Do sends a request with body (marshalled to JSON unless it is a string
// or nil) and decodes the JSON answer.
func (c *Client) Do(ctx context.Context, method, path string, body any) (*Response, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewReader([]byte(b))
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, rd)
	if err != nil {
		return nil, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	out := &Response{Status: resp.StatusCode, Body: data}
	if err := json.Unmarshal(data, &out.JSON); err != nil {
		return nil, fmt.Errorf("%s %s answered %d with a body that is no JSON object: %q", method, path, resp.StatusCode, data)
	}
	return out, nil
}

// ok sends a request that must succeed.
func (c *Client) ok(ctx context.Context, method, path string, body any) (map[string]any, error) {
	r, err := c.Do(ctx, method, path, body)
	if err != nil {
		return nil, err
	}
	if r.Status != http.StatusOK {
		return nil, fmt.Errorf("%s %s: %d %s", method, path, r.Status, r.Body)
	}
	return r.JSON, nil
}

// OpenSession opens a session with properties and returns its handle.
func (c *Client) OpenSession(ctx context.Context, properties map[string]string) (string, error) {
	r, err := c.ok(ctx, "POST", "/v1/sessions", map[string]any{"sessionName": "test", "properties": properties})
	if err != nil {
		return "", err
	}
	h, _ := r["sessionHandle"].(string)
	return h, nil
}

// Submit submits a statement and returns its operation's handle.
func (c *Client) Submit(ctx context.Context, session, statement string) (string, error) {
	r, err := c.ok(ctx, "POST", "/v1/sessions/"+session+"/statements", map[string]string{"statement": statement})
	if err != nil {
		return "", err
	}
	h, _ := r["operationHandle"].(string)
	return h, nil
}

// Wait polls an operation's status until it is no longer PENDING or
// RUNNING, and returns it.
func (c *Client) Wait(ctx context.Context, session, op string) (string, error) {
	for {
		r, err := c.ok(ctx, "GET", "/v1/sessions/"+session+"/operations/"+op+"/status", nil)
		if err != nil {
			return "", err
		}
		if s, _ := r["status"].(string); s != "PENDING" && s != "RUNNING" {
			return s, nil
		}
		if err := pause(ctx); err != nil {
			return "", err
		}
	}
}

// Fetch follows an operation's results from path (its first result
// URI) and hands every response to each until each returns false or the
// results end (EOS); it returns the last response.
func (c *Client) Fetch(ctx context.Context, path string, each func(map[string]any) bool) (map[string]any, error) {
	for {
		r, err := c.ok(ctx, "GET", path, nil)
		if err != nil {
			return nil, err
		}
		if !each(r) {
			return r, nil
		}
		next, _ := r["nextResultUri"].(string)
		if next == "" {
			return r, nil
		}
		if r["resultType"] == "NOT_READY" || len(Rows(r)) == 0 {
			if err := pause(ctx); err != nil {
				return nil, err
			}
		}
		path = next
	}
}

// Run submits a statement, waits for it and returns the rows of its
// result (each row's fields), failing when it ends in another status
// than FINISHED.
func (c *Client) Run(ctx context.Context, session, statement string) ([][]any, error) {
	op, err := c.Submit(ctx, session, statement)
	if err != nil {
		return nil, err
	}
	if st, err := c.Wait(ctx, session, op); err != nil {
		return nil, err
	} else if st != "FINISHED" {
		r, _ := c.Do(ctx, "GET", "/v1/sessions/"+session+"/operations/"+op+"/result/0", nil)
		return nil, fmt.Errorf("%s: operation %s: %s", statement, st, r.Body)
	}
	var rows [][]any
	_, err = c.Fetch(ctx, "/v1/sessions/"+session+"/operations/"+op+"/result/0", func(r map[string]any) bool {
		for _, row := range Rows(r) {
			rows = append(rows, row["fields"].([]any))
		}
		return true
	})
	return rows, err
}

// Rows returns the rows of a fetch response.
func Rows(r map[string]any) []map[string]any {
	res, _ := r["results"].(map[string]any)
	data, _ := res["data"].([]any)
	out := make([]map[string]any, len(data))
	for i, d := range data {
		out[i], _ = d.(map[string]any)
	}
	return out
}

// pause waits a little before asking again, or until ctx ends.
func pause(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(10 * time.Millisecond):
		return nil
	}
}

// Apply applies the changelog rows of a fetch response to state, a table
// of two columns keyed by the first: INSERT and UPDATE_AFTER set a key's
// value, UPDATE_BEFORE and DELETE remove it.
func Apply(state map[string]any, r map[string]any) error {
	for _, row := range Rows(r) {
		f, _ := row["fields"].([]any)
		if len(f) != 2 {
			return fmt.Errorf("row %v has not two fields", row)
		}
		key := fmt.Sprint(f[0])
		switch row["kind"] {
		case "INSERT", "UPDATE_AFTER":
			state[key] = f[1]
		case "UPDATE_BEFORE", "DELETE":
			delete(state, key)
		default:
			return fmt.Errorf("row %v has an unknown kind", row)
		}
	}
	return nil
}
