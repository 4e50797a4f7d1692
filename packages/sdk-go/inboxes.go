package burnbox

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
)

// CreateInbox creates an inbox (POST /inboxes). A team key needs the team.inboxes.create scope.
func (c *Client) CreateInbox(ctx context.Context, params CreateInboxParams) (*Inbox, error) {
	if params.DomainAssignmentID == "" {
		return nil, errors.New("burnbox: CreateInbox needs a DomainAssignmentID")
	}
	var inbox Inbox
	if err := c.do(ctx, http.MethodPost, "/inboxes", nil, params, &inbox); err != nil {
		return nil, err
	}
	return &inbox, nil
}

// GetInbox reads one inbox (GET /inboxes/{id}).
func (c *Client) GetInbox(ctx context.Context, id string) (*Inbox, error) {
	if err := needID("inbox", id); err != nil {
		return nil, err
	}
	var inbox Inbox
	if err := c.do(ctx, http.MethodGet, "/inboxes/"+pathEscape(id), nil, nil, &inbox); err != nil {
		return nil, err
	}
	return &inbox, nil
}

// ListInboxes lists the inboxes the caller may see, one page at a time (GET /inboxes).
func (c *Client) ListInboxes(ctx context.Context, params ListInboxesParams) (*InboxPage, error) {
	q := url.Values{}
	set(q, "q", params.Query)
	set(q, "status", params.Status)
	set(q, "team_id", params.TeamID)
	setInt(q, "page", params.Page)
	setInt(q, "per_page", params.PerPage)
	var page InboxPage
	if err := c.do(ctx, http.MethodGet, "/inboxes", q, nil, &page); err != nil {
		return nil, err
	}
	return &page, nil
}

// DeleteInbox deletes an inbox and its mail (DELETE /inboxes/{id}); a wait on it ends with a
// 404.
func (c *Client) DeleteInbox(ctx context.Context, id string) error {
	if err := needID("inbox", id); err != nil {
		return err
	}
	return c.do(ctx, http.MethodDelete, "/inboxes/"+pathEscape(id), nil, nil, nil)
}

// ListEmails lists an inbox's emails, newest first (GET /inboxes/{id}/emails).
func (c *Client) ListEmails(ctx context.Context, inboxID string, params ListEmailsParams) (*EmailPage, error) {
	if err := needID("inbox", inboxID); err != nil {
		return nil, err
	}
	q := url.Values{}
	set(q, "q", params.Query)
	setInt(q, "page", params.Page)
	setInt(q, "per_page", params.PerPage)
	var page EmailPage
	if err := c.do(ctx, http.MethodGet, "/inboxes/"+pathEscape(inboxID)+"/emails", q, nil, &page); err != nil {
		return nil, err
	}
	return &page, nil
}

// GetEmail reads one email in full, with its bodies and headers (GET /emails/{id}).
func (c *Client) GetEmail(ctx context.Context, id string) (*Email, error) {
	if err := needID("email", id); err != nil {
		return nil, err
	}
	var email Email
	if err := c.do(ctx, http.MethodGet, "/emails/"+pathEscape(id), nil, nil, &email); err != nil {
		return nil, err
	}
	return &email, nil
}

func needID(what, id string) error {
	if id == "" {
		return errors.New("burnbox: the " + what + " id is empty")
	}
	return nil
}

func set(q url.Values, name, value string) {
	if value != "" {
		q.Set(name, value)
	}
}

func setInt(q url.Values, name string, value int) {
	if value != 0 {
		q.Set(name, strconv.Itoa(value))
	}
}
