package burnbox_test

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	burnbox "burnbox-go"
)

// openapi-calls.json lists the operations this client calls, with the fields it sends and
// reads, for npm test's check against the OpenAPI document. This test keeps that list true to
// the code: every method is called with every option set, and what went on the wire and the
// JSON fields of the types it decodes must be what the file says.
func TestOpenAPICallsListsWhatTheClientSendsAndReads(t *testing.T) {
	raw, err := os.ReadFile("openapi-calls.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Calls []struct {
			Method   string   `json:"method"`
			Path     string   `json:"path"`
			Request  []string `json:"request"`
			Response []string `json:"response"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	listed := map[string][2][]string{}
	for _, c := range file.Calls {
		listed[c.Method+" "+c.Path] = [2][]string{sorted(c.Request), sorted(c.Response)}
	}

	c, got := server(t, 200, `{}`)
	ctx := context.Background()
	n := 1
	calls := []struct {
		call func() error
		// the type the answer is decoded into; nil: none is read
		reads any
	}{
		{func() error {
			_, err := c.CreateInbox(ctx, burnbox.CreateInboxParams{DomainAssignmentID: "a", Alias: "x", TTL: "1h", Private: true,
				SMTPBehaviour: &burnbox.SMTPBehaviour{DelayMS: &n}})
			return err
		}, burnbox.Inbox{}},
		{func() error {
			_, err := c.ListInboxes(ctx, burnbox.ListInboxesParams{Query: "q", Status: "all", TeamID: "t", Page: 1, PerPage: 1})
			return err
		}, burnbox.InboxPage{}},
		{func() error { _, err := c.GetInbox(ctx, "ID"); return err }, burnbox.Inbox{}},
		{func() error { return c.DeleteInbox(ctx, "ID") }, nil},
		{func() error {
			_, err := c.ListEmails(ctx, "ID", burnbox.ListEmailsParams{Query: "q", Page: 1, PerPage: 1})
			return err
		}, burnbox.EmailPage{}},
		{func() error { _, err := c.GetEmail(ctx, "ID"); return err }, burnbox.Email{}},
		{func() error {
			_, err := c.Wait(ctx, "ID", burnbox.WaitOptions{From: "f", To: "t", Subject: "s", Body: "b", SubjectRegexp: "s", BodyRegexp: "b",
				Headers: map[string]string{"X": "y"}, Since: time.Now(), Unread: true, Count: 2, Timeout: time.Second})
			return err
		}, burnbox.WaitResult{}},
	}
	seen := map[string]bool{}
	for i, call := range calls {
		if err := call.call(); err != nil {
			t.Fatal(err)
		}
		r := got.at(i)
		op := r.method + " " + strings.ReplaceAll(r.path, "/ID", "/{id}")
		seen[op] = true
		want, ok := listed[op]
		if !ok {
			t.Errorf("%s is called but not in openapi-calls.json", op)
			continue
		}
		var sent []string
		for name := range r.query {
			sent = append(sent, name)
		}
		if len(r.body) > 0 {
			var body map[string]json.RawMessage
			if err := json.Unmarshal(r.body, &body); err != nil {
				t.Fatal(err)
			}
			for name := range body {
				sent = append(sent, name)
			}
		}
		if sent = sorted(sent); !reflect.DeepEqual(sent, want[0]) {
			t.Errorf("%s sends %v; openapi-calls.json lists %v", op, sent, want[0])
		}
		reads := []string{}
		if call.reads != nil {
			reads = sorted(jsonFields(reflect.TypeOf(call.reads)))
		}
		if !reflect.DeepEqual(reads, want[1]) {
			t.Errorf("%s reads %v; openapi-calls.json lists %v", op, reads, want[1])
		}
	}
	for op := range listed {
		if !seen[op] {
			t.Errorf("openapi-calls.json lists %s, which the client does not call", op)
		}
	}
}

// jsonFields are the top-level JSON names of a struct's fields, embedded structs' included.
func jsonFields(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			names = append(names, jsonFields(f.Type)...)
			continue
		}
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

func sorted(s []string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}
