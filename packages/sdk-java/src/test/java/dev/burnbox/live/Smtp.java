package dev.burnbox.live;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

/**
 * A plain SMTP client on a socket, enough to send one text mail to BurnBox's intake, as the app under
 * test would. No TLS and no AUTH: the intake takes mail for its own domains from anyone.
 */
final class Smtp {
  private final String host;
  private final int port;

  Smtp(String host, int port) {
    this.host = host;
    this.port = port;
  }

  static Smtp fromEnvironment() {
    String host = System.getenv().getOrDefault("BURNBOX_SMTP_HOST", "127.0.0.1");
    int port = Integer.parseInt(System.getenv().getOrDefault("BURNBOX_SMTP_PORT", "25"));
    return new Smtp(host, port);
  }

  void send(String from, String to, String subject, String text, Map<String, String> headers) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 5_000);
      socket.setSoTimeout(10_000);
      BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      OutputStream out = socket.getOutputStream();
      expect(in, 220);
      command(out, in, "EHLO java.test", 250);
      command(out, in, "MAIL FROM:<" + from + ">", 250);
      command(out, in, "RCPT TO:<" + to + ">", 250);
      command(out, in, "DATA", 354);
      StringBuilder message = new StringBuilder()
          .append("From: ").append(from).append("\r\n")
          .append("To: ").append(to).append("\r\n")
          .append("Subject: ").append(subject).append("\r\n")
          .append("Message-ID: <").append(UUID.randomUUID()).append("@java.test>\r\n")
          .append("MIME-Version: 1.0\r\n")
          .append("Content-Type: text/plain; charset=utf-8\r\n");
      headers.forEach((k, v) -> message.append(k).append(": ").append(v).append("\r\n"));
      message.append("\r\n");
      for (String line : text.split("\n", -1)) message.append(line.startsWith(".") ? "." : "").append(line).append("\r\n");
      message.append(".");
      command(out, in, message.toString(), 250);
      command(out, in, "QUIT", 221);
    }
  }

  private static void command(OutputStream out, BufferedReader in, String line, int expected) throws IOException {
    out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
    expect(in, expected);
  }

  /** Reads one reply (its continuation lines too) and checks its code. */
  private static void expect(BufferedReader in, int expected) throws IOException {
    String line;
    do {
      line = in.readLine();
      if (line == null) throw new IOException("the SMTP server closed the connection");
    } while (line.length() > 3 && line.charAt(3) == '-');
    if (!line.startsWith(Integer.toString(expected))) throw new IOException("SMTP: expected " + expected + ", got " + line);
  }
}
