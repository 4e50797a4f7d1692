package burnbox

import "time"

// Inbox is a disposable address on a team's domain.
type Inbox struct {
	ID string `json:"id"`
	// Address is the local part; FullAddress is the address to send to.
	Address            string         `json:"address"`
	FullAddress        string         `json:"full_address"`
	DomainID           string         `json:"domain_id"`
	DomainAssignmentID string         `json:"domain_assignment_id"`
	OrgID              string         `json:"org_id"`
	TeamID             string         `json:"team_id"`
	CreatedBy          string         `json:"created_by"`
	Private            bool           `json:"private"`
	IsActive           bool           `json:"is_active"`
	EmailCount         int            `json:"email_count"`
	UnreadCount        int            `json:"unread_count"`
	SMTPBehaviour      *SMTPBehaviour `json:"smtp_behaviour"`
	CreatedAt          time.Time      `json:"created_at"`
	ExpiresAt          time.Time      `json:"expires_at"`
}

// SMTPBehaviour makes the SMTP intake misbehave for one inbox, to test how a sender copes: nil
// fields are off.
type SMTPBehaviour struct {
	// DeferFirst answers 451 to the first n attempts of each message, as greylisting does.
	DeferFirst *int `json:"defer_first,omitempty"`
	// DelayMS holds the final reply to DATA at least this many milliseconds.
	DelayMS *int `json:"delay_ms,omitempty"`
	// MaxSizeBytes answers 552 to a larger message.
	MaxSizeBytes *int `json:"max_size_bytes,omitempty"`
	// RejectRcpt answers RCPT TO for this inbox with exactly this reply.
	RejectRcpt *SMTPReply `json:"reject_rcpt,omitempty"`
}

// SMTPReply is an SMTP reply: 550 and "5.7.1 Relaying denied".
type SMTPReply struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// CreateInboxParams is the body of [Client.CreateInbox].
type CreateInboxParams struct {
	// DomainAssignmentID is the team's domain to create the inbox on (required).
	DomainAssignmentID string `json:"domain_assignment_id"`
	// Alias is the local part; empty: a random one.
	Alias string `json:"alias,omitempty"`
	// TTL is how long the inbox lives, as the server reads durations ("15m", "2h", "7d");
	// empty: the domain's default.
	TTL string `json:"ttl,omitempty"`
	// Private hides the inbox from the rest of the team.
	Private bool `json:"private,omitempty"`
	// SMTPBehaviour, when set, makes the SMTP intake misbehave for this inbox.
	SMTPBehaviour *SMTPBehaviour `json:"smtp_behaviour,omitempty"`
}

// Page is where a page of a list lies in the whole.
type Page struct {
	Page       int `json:"page"`
	PerPage    int `json:"per_page"`
	Total      int `json:"total"`
	TotalPages int `json:"total_pages"`
}

// InboxPage is one page of [Client.ListInboxes].
type InboxPage struct {
	Inboxes []Inbox `json:"data"`
	Page
}

// EmailPage is one page of [Client.ListEmails], newest first.
type EmailPage struct {
	Emails []EmailSummary `json:"data"`
	Page
}

// ListInboxesParams filters and pages [Client.ListInboxes]; zero fields are left out.
type ListInboxesParams struct {
	// Query is a substring of the address.
	Query string
	// Status is "active" (the server's default), "expired" or "all".
	Status string
	// TeamID lists one team's inboxes.
	TeamID  string
	Page    int
	PerPage int
}

// ListEmailsParams filters and pages [Client.ListEmails]; zero fields are left out.
type ListEmailsParams struct {
	// Query searches the subject, the sender and the body.
	Query   string
	Page    int
	PerPage int
}

// EmailSummary is an email as lists and waits give it: no bodies, but what was extracted.
type EmailSummary struct {
	ID             string    `json:"id"`
	InboxID        string    `json:"inbox_id"`
	FromAddress    string    `json:"from_address"`
	Subject        string    `json:"subject"`
	Snippet        string    `json:"snippet"`
	SizeBytes      int       `json:"size_bytes"`
	HasAttachments bool      `json:"has_attachments"`
	IsRead         bool      `json:"is_read"`
	ReceivedAt     time.Time `json:"received_at"`
	Extracted      Extracted `json:"extracted"`
	// AuthenticationSummary is DMARC's verdict: "pass", "fail" or "none".
	AuthenticationSummary string `json:"authentication_summary"`
}

// Email is one email in full.
type Email struct {
	ID          string `json:"id"`
	InboxID     string `json:"inbox_id"`
	MessageID   string `json:"message_id"`
	FromAddress string `json:"from_address"`
	ToAddress   string `json:"to_address"`
	Subject     string `json:"subject"`
	// BodyText and BodyHTML are empty when the mail has no such part.
	BodyText       string            `json:"body_text"`
	BodyHTML       string            `json:"body_html"`
	Headers        map[string]string `json:"headers"`
	SizeBytes      int               `json:"size_bytes"`
	IsRead         bool              `json:"is_read"`
	ReceivedAt     time.Time         `json:"received_at"`
	Attachments    []Attachment      `json:"attachments"`
	Extracted      Extracted         `json:"extracted"`
	Authentication *Authentication   `json:"authentication"`
}

// Attachment describes one attachment of an email.
type Attachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"`
	SizeBytes   int    `json:"size_bytes"`
}

// Authentication holds the SPF, DKIM, DMARC and ARC verdicts worked out when the mail was
// received; nil on mail received before they were.
type Authentication struct {
	SPF struct {
		Result string `json:"result"`
		Domain string `json:"domain"`
	} `json:"spf"`
	DKIM []struct {
		Result   string `json:"result"`
		Domain   string `json:"domain"`
		Selector string `json:"selector"`
	} `json:"dkim"`
	DMARC struct {
		Result string `json:"result"`
		Domain string `json:"domain"`
		Policy string `json:"policy"`
	} `json:"dmarc"`
	ARC struct {
		Result string `json:"result"`
	} `json:"arc"`
}

// Extracted holds the one-time codes and links found in a mail when it was received.
type Extracted struct {
	Codes []Code `json:"codes"`
	Links []Link `json:"links"`
}

// Code is a one-time code: Value as typed ("123 456" gives "123456"), Context up to 60
// characters of the text around it.
type Code struct {
	Value   string `json:"value"`
	Context string `json:"context"`
}

// Link is a link of a mail: Text is the anchor's text, empty for a URL of the text part.
type Link struct {
	URL  string   `json:"url"`
	Text string   `json:"text"`
	Kind LinkKind `json:"kind"`
}

// LinkKind is what a link is for, judged from its URL and text.
type LinkKind string

// The kinds of link.
const (
	LinkVerify      LinkKind = "verify"
	LinkReset       LinkKind = "reset"
	LinkMagic       LinkKind = "magic_link"
	LinkUnsubscribe LinkKind = "unsubscribe"
	LinkOther       LinkKind = "other"
)
