// Reads spec files the way Kafka's generator does (Jackson, comments allowed) and prints,
// for each file given, one JSON line: the tree Jackson builds and the line and column of
// every object key, or Jackson's error and where it stopped. tests/test_kafka_reading.py
// compiles it against the Jackson jars pyspark ships and compares kcompat's reading.
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

public class JacksonRead {
  public static void main(String[] args) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    mapper.configure(JsonParser.Feature.ALLOW_COMMENTS, true); // as Kafka's MessageGenerator
    for (String path : args) {
      byte[] bytes = Files.readAllBytes(Paths.get(path));
      ObjectNode out = mapper.createObjectNode();
      try {
        out.set("tree", mapper.readTree(bytes));
        String text = new String(bytes, StandardCharsets.UTF_8);
        // a byte source skips a byte order mark; a String source would not
        out.set("keys", keys(mapper, text.startsWith("\uFEFF") ? text.substring(1) : text));
      } catch (JsonProcessingException e) {
        JsonLocation where = e.getLocation();
        out.put("error", e.getOriginalMessage());
        out.put("line", where == null ? 0 : where.getLineNr());
      }
      System.out.println(mapper.writeValueAsString(out));
    }
  }

  /** Every object key with its line and column (characters, counted as Jackson counts). */
  static ArrayNode keys(ObjectMapper mapper, String text) throws Exception {
    ArrayNode keys = mapper.createArrayNode();
    try (JsonParser parser = mapper.getFactory().createParser(text)) {
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        if (token == JsonToken.FIELD_NAME) {
          JsonLocation where = parser.currentTokenLocation();
          keys.add(mapper.createArrayNode()
              .add(parser.currentName()).add(where.getLineNr()).add(where.getColumnNr()));
        }
        if (parser.getParsingContext().inRoot() && token.isStructEnd()) {
          break; // Jackson's tree reader stops after the root value too
        }
      }
    }
    return keys;
  }
}
