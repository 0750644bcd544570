package io.bamel.inventory.api.nodes;

import io.bamel.inventory.model.Labels;
import io.bamel.inventory.model.Texts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A Kubernetes label selector (the syntax of {@code kubectl -l} and apimachinery's {@code
 * labels.Parse}): requirements separated by commas, all of which must hold. A requirement is {@code
 * key=value}, {@code key==value}, {@code key!=value}, {@code key in (v1,v2)}, {@code key notin
 * (v1,v2)}, {@code key} (the key exists) or {@code !key} (it does not). Whitespace around tokens is
 * ignored; a value may be empty ({@code key=}, {@code key in ()}); {@code !=} and {@code notin}
 * hold for a node without the key. Keys and values must be valid labels ({@link Labels}); {@code
 * in} and {@code notin} are keywords, not keys. The empty selector selects everything. Parsing is
 * pure: {@link #parse} either returns a selector or throws {@link SyntaxError} with the 1-based
 * character position of the problem.
 */
public record LabelSelector(List<Requirement> requirements) {

  /** How a requirement compares a node's label. */
  public enum Operator {
    EQUALS("="),
    NOT_EQUALS("!="),
    IN("in"),
    NOT_IN("notin"),
    EXISTS(""),
    DOES_NOT_EXIST("!");

    private final String text;

    Operator(String text) {
      this.text = text;
    }
  }

  /**
   * One requirement: the key, the operator and its values (one for {@code =} and {@code !=}, a
   * sorted set for {@code in} and {@code notin}, none for the existence tests).
   */
  public record Requirement(String key, Operator operator, Set<String> values) {

    /** Copies the values, sorted. */
    public Requirement {
      values = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(values));
    }

    /** Whether {@code labels} satisfy this requirement. */
    public boolean matches(Map<String, String> labels) {
      String value = labels.get(key);
      return switch (operator) {
        case EQUALS, IN -> value != null && values.contains(value);
        case NOT_EQUALS, NOT_IN -> value == null || !values.contains(value);
        case EXISTS -> value != null;
        case DOES_NOT_EXIST -> value == null;
      };
    }

    /** The requirement in canonical syntax ({@code k=v}, {@code k in (a,b)}, {@code !k}). */
    public String canonical() {
      return switch (operator) {
        case EQUALS, NOT_EQUALS -> key + operator.text + values.iterator().next();
        case IN, NOT_IN -> key + " " + operator.text + " (" + String.join(",", values) + ")";
        case EXISTS -> key;
        case DOES_NOT_EXIST -> "!" + key;
      };
    }
  }

  /** A selector that cannot be parsed: what is wrong and where (1-based character position). */
  public static final class SyntaxError extends IllegalArgumentException {
    private final int position;

    SyntaxError(int position, String message) {
      super("at character " + position + ": " + message, null);
      this.position = position;
    }

    /** The 1-based position of the character the problem was found at (length + 1: the end). */
    public int position() {
      return position;
    }
  }

  /** The selector that selects everything. */
  public static final LabelSelector EVERYTHING = new LabelSelector(List.of());

  /** Copies the requirements. */
  public LabelSelector {
    requirements = List.copyOf(requirements);
  }

  /**
   * Parses {@code text} (blank: {@link #EVERYTHING}).
   *
   * @throws SyntaxError naming the position and the problem
   */
  public static LabelSelector parse(String text) {
    if (text.isBlank()) {
      return EVERYTHING;
    }
    return new Parser(text).selector();
  }

  /** Whether the selector has no requirement (selects everything). */
  public boolean isEmpty() {
    return requirements.isEmpty();
  }

  /** Whether {@code labels} satisfy every requirement. */
  public boolean matches(Map<String, String> labels) {
    for (Requirement r : requirements) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A stable text of the selector: its requirements in canonical syntax, sorted and without
   * duplicates, so that equivalent spellings ({@code a=b, c} and {@code c,a==b}) share cached
   * pages.
   */
  public String canonical() {
    TreeSet<String> parts = new TreeSet<>();
    for (Requirement r : requirements) {
      parts.add(r.canonical());
    }
    return String.join(",", parts);
  }

  /** Tokens: identifiers (keys, values, keywords) and the operators and punctuation. */
  private enum Kind {
    IDENTIFIER,
    EQUALS,
    DOUBLE_EQUALS,
    NOT_EQUALS,
    NOT,
    OPEN,
    CLOSE,
    COMMA,
    UNSUPPORTED,
    END
  }

  private record Token(Kind kind, String text, int position) {
    String describe() {
      return kind == Kind.END ? "the end of the selector" : Texts.quote(text);
    }
  }

  /** A recursive-descent parser over a list of tokens. */
  private static final class Parser {
    private final List<Token> tokens;
    private int next;

    Parser(String text) {
      this.tokens = lex(text);
    }

    private static List<Token> lex(String text) {
      List<Token> out = new ArrayList<>();
      int i = 0;
      int n = text.length();
      while (i < n) {
        char c = text.charAt(i);
        int position = i + 1;
        if (Character.isWhitespace(c)) {
          i++;
        } else if (c == '=' && i + 1 < n && text.charAt(i + 1) == '=') {
          out.add(new Token(Kind.DOUBLE_EQUALS, "==", position));
          i += 2;
        } else if (c == '!' && i + 1 < n && text.charAt(i + 1) == '=') {
          out.add(new Token(Kind.NOT_EQUALS, "!=", position));
          i += 2;
        } else if (c == '=' || c == '!' || c == '(' || c == ')' || c == ',') {
          Kind kind =
              switch (c) {
                case '=' -> Kind.EQUALS;
                case '!' -> Kind.NOT;
                case '(' -> Kind.OPEN;
                case ')' -> Kind.CLOSE;
                default -> Kind.COMMA;
              };
          out.add(new Token(kind, String.valueOf(c), position));
          i++;
        } else if (c == '<' || c == '>') {
          out.add(new Token(Kind.UNSUPPORTED, String.valueOf(c), position));
          i++;
        } else {
          int start = i;
          while (i < n && !isSpecial(text.charAt(i))) {
            i++;
          }
          out.add(new Token(Kind.IDENTIFIER, text.substring(start, i), position));
        }
      }
      out.add(new Token(Kind.END, "", n + 1));
      return out;
    }

    private static boolean isSpecial(char c) {
      return Character.isWhitespace(c) || "=!(),<>".indexOf(c) >= 0;
    }

    private Token peek() {
      return tokens.get(next);
    }

    private Token take() {
      Token t = tokens.get(next);
      if (t.kind() != Kind.END) {
        next++;
      }
      return t;
    }

    private static SyntaxError error(Token at, String expected) {
      if (at.kind() == Kind.UNSUPPORTED) {
        return new SyntaxError(
            at.position(), "the operator " + at.describe() + " is not supported; " + expected);
      }
      return new SyntaxError(at.position(), expected + ", found " + at.describe());
    }

    LabelSelector selector() {
      List<Requirement> requirements = new ArrayList<>();
      while (true) {
        requirements.add(requirement());
        Token t = take();
        if (t.kind() == Kind.END) {
          return new LabelSelector(requirements);
        }
        if (t.kind() != Kind.COMMA) {
          throw error(t, "expected ',' or the end of the selector");
        }
      }
    }

    private Requirement requirement() {
      Token first = peek();
      if (first.kind() == Kind.NOT) {
        take();
        String key = key(take());
        return new Requirement(key, Operator.DOES_NOT_EXIST, Set.of());
      }
      String key = key(take());
      Token op = peek();
      switch (op.kind()) {
        case COMMA, END -> {
          return new Requirement(key, Operator.EXISTS, Set.of());
        }
        case EQUALS, DOUBLE_EQUALS -> {
          take();
          return new Requirement(key, Operator.EQUALS, Set.of(exactValue()));
        }
        case NOT_EQUALS -> {
          take();
          return new Requirement(key, Operator.NOT_EQUALS, Set.of(exactValue()));
        }
        case IDENTIFIER -> {
          if (op.text().equals("in") || op.text().equals("notin")) {
            take();
            Operator operator = op.text().equals("in") ? Operator.IN : Operator.NOT_IN;
            return new Requirement(key, operator, valueSet());
          }
          throw error(op, "expected an operator (=, ==, !=, in, notin), ',' or the end");
        }
        default -> throw error(op, "expected an operator (=, ==, !=, in, notin), ',' or the end");
      }
    }

    private static String key(Token t) {
      if (t.kind() != Kind.IDENTIFIER || t.text().equals("in") || t.text().equals("notin")) {
        throw error(t, "expected a label key");
      }
      if (!Labels.isValidKey(t.text())) {
        throw new SyntaxError(t.position(), "not a valid label key: " + t.describe());
      }
      return t.text();
    }

    /** The value after {@code =}, {@code ==} or {@code !=}: empty before ',' or the end. */
    private String exactValue() {
      Token t = peek();
      if (t.kind() == Kind.COMMA || t.kind() == Kind.END) {
        return "";
      }
      if (t.kind() != Kind.IDENTIFIER) {
        throw error(t, "expected a label value");
      }
      take();
      return value(t);
    }

    /** {@code ( v1, v2 )}; empty entries are the empty value, as in apimachinery. */
    private Set<String> valueSet() {
      Token open = take();
      if (open.kind() != Kind.OPEN) {
        throw error(open, "expected '(' after in or notin");
      }
      Set<String> values = new TreeSet<>();
      boolean expectValue = true;
      while (true) {
        Token t = take();
        switch (t.kind()) {
          case IDENTIFIER -> {
            if (!expectValue) {
              throw error(t, "expected ',' or ')'");
            }
            values.add(value(t));
            expectValue = false;
          }
          case COMMA -> {
            if (expectValue) {
              values.add("");
            }
            expectValue = true;
          }
          case CLOSE -> {
            if (expectValue) {
              values.add("");
            }
            return values;
          }
          default ->
              throw error(t, expectValue ? "expected a label value or ')'" : "expected ',' or ')'");
        }
      }
    }

    private static String value(Token t) {
      if (!Labels.isValidValue(t.text())) {
        throw new SyntaxError(t.position(), "not a valid label value: " + t.describe());
      }
      return t.text();
    }
  }
}
