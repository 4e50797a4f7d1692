package burnbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// Version is this client's version, sent in its User-Agent.
const Version = "0.1.0"

// The environment variables [NewFromEnv] reads.
const (
	EnvURL    = "BURNBOX_URL"
	EnvAPIKey = "BURNBOX_API_KEY"
)

// Client talks to one BurnBox over HTTP. It is safe for concurrent use; make one and share it.
type Client struct {
	baseURL    *url.URL // ends in /api/v1
	credential string
	httpClient *http.Client
	userAgent  string
}

// Option configures a [Client] made by [New] or [NewFromEnv].
type Option func(*Client)

// WithAPIKey authenticates every request with a team API key (bb_…).
func WithAPIKey(key string) Option {
	return func(c *Client) { c.credential = key }
}

// WithToken authenticates every request with a JWT access token (from a login) instead of an
// API key.
func WithToken(token string) Option {
	return func(c *Client) { c.credential = token }
}

// WithHTTPClient sends requests with hc instead of [http.DefaultClient]. A wait lasts up to its
// timeout (at most 120 s), so an hc.Timeout shorter than that cuts long waits short; prefer a
// context deadline.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) { c.httpClient = hc }
}

// WithUserAgent sets the User-Agent sent (default "burnbox-go/<Version>").
func WithUserAgent(ua string) Option {
	return func(c *Client) { c.userAgent = ua }
}

// New makes a client for the BurnBox at baseURL ("https://burnbox.example.com"; "/api/v1" is
// added unless the URL ends with it). Give a credential with [WithAPIKey] or [WithToken].
func New(baseURL string, opts ...Option) (*Client, error) {
	if baseURL == "" {
		return nil, errors.New("burnbox: the base URL is empty")
	}
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("burnbox: the base URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("burnbox: the base URL %q is not an http or https URL", baseURL)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(u.Path, "/api/v1") {
		u.Path += "/api/v1"
	}
	u.RawPath, u.RawQuery, u.Fragment = "", "", ""
	c := &Client{baseURL: u, httpClient: http.DefaultClient, userAgent: "burnbox-go/" + Version}
	for _, opt := range opts {
		opt(c)
	}
	if strings.ContainsAny(c.credential, "\r\n") {
		return nil, errors.New("burnbox: the credential holds a line break")
	}
	return c, nil
}

// NewFromEnv makes a client from BURNBOX_URL and BURNBOX_API_KEY; opts apply after them.
func NewFromEnv(opts ...Option) (*Client, error) {
	base := os.Getenv(EnvURL)
	if base == "" {
		return nil, fmt.Errorf("burnbox: %s is not set", EnvURL)
	}
	key := os.Getenv(EnvAPIKey)
	if key == "" {
		return nil, fmt.Errorf("burnbox: %s is not set", EnvAPIKey)
	}
	if !strings.HasPrefix(key, "bb_") {
		return nil, fmt.Errorf("burnbox: %s does not start with bb_", EnvAPIKey)
	}
	return New(base, append([]Option{WithAPIKey(key)}, opts...)...)
}

// BaseURL is where the client sends requests, ending in /api/v1.
func (c *Client) BaseURL() string { return c.baseURL.String() }

// do sends one request: path is the operation's path below /api/v1 with its parameters
// escaped, in is marshalled as the JSON body when not nil, and a 2xx answer is decoded into out
// when out is not nil. Any other answer is an *Error.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, in, out any) error {
	u := *c.baseURL
	u.RawPath = c.baseURL.EscapedPath() + path
	unescaped, err := url.PathUnescape(u.RawPath)
	if err != nil {
		return fmt.Errorf("burnbox: %s %s: %w", method, path, err)
	}
	u.Path = unescaped
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("burnbox: %s %s: %w", method, path, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return fmt.Errorf("burnbox: %s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.credential != "" {
		req.Header.Set("Authorization", "Bearer "+c.credential)
	}
	res, err := c.httpClient.Do(req)
	if err != nil {
		// the context's own error when it ended the call, so errors.Is(err, context.DeadlineExceeded) holds
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("burnbox: %s %s: %w", method, path, ctxErr)
		}
		return fmt.Errorf("burnbox: %s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return fmt.Errorf("burnbox: %s %s: reading the answer: %w", method, path, err)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return errorFromResponse(res, raw)
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("burnbox: %s %s: decoding the answer: %w", method, path, err)
	}
	return nil
}

// maxBody bounds what is read of one answer (a page of 100 emails with their texts fits).
const maxBody = 64 << 20

// pathEscape escapes one path parameter.
func pathEscape(s string) string { return url.PathEscape(s) }
