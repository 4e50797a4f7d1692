package dev.burnbox;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** One page of a listing: {@code data}, with where it stands among {@code total} items. */
public record Page<T>(
    List<T> data,
    int page,
    @JsonProperty("per_page") int perPage,
    long total,
    @JsonProperty("total_pages") int totalPages) {

  public Page {
    data = data == null ? List.of() : List.copyOf(data);
  }
}
