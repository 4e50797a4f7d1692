package dev.burnbox;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** The one ObjectMapper: unknown fields are ignored (the API adds fields), times are ISO 8601 instants. */
final class Json {
  static final ObjectMapper MAPPER = create();

  private Json() {}

  private static ObjectMapper create() {
    SimpleModule times = new SimpleModule("burnbox-times");
    times.addDeserializer(Instant.class, new InstantDeserializer());
    return new ObjectMapper()
        .registerModule(times)
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
        .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);
  }

  /** Instants as the API writes them ({@code 2026-12-02T05:10:00.000Z}); the datatype module is not needed for that. */
  private static final class InstantDeserializer extends StdScalarDeserializer<Instant> {
    private static final long serialVersionUID = 1L;

    InstantDeserializer() {
      super(Instant.class);
    }

    @Override
    public Instant deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
      String text = p.getValueAsString();
      if (text == null || text.isEmpty()) return null;
      try {
        return Instant.parse(text);
      } catch (DateTimeParseException e) {
        return (Instant) ctx.handleWeirdStringValue(Instant.class, text, "not an ISO 8601 instant");
      }
    }
  }
}
