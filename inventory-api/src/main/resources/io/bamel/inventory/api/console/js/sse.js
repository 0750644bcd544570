// A Server-Sent Events parser (the text/event-stream format): feed it text as it arrives, in
// chunks cut anywhere; it calls onEvent({id, event, data}) for each complete event. Comments
// (lines starting with ':') count as activity only. Pure: no I/O.

export function createParser(onEvent) {
  let buffer = '';
  let id = null;
  let event = '';
  let data = [];

  function line(text) {
    if (text === '') {
      if (data.length > 0) onEvent({ id, event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
  }

  return {
    /** Adds text received from the stream. */
    feed(chunk) {
      buffer += chunk;
      let start = 0;
      for (;;) {
        const cr = buffer.indexOf('\r', start);
        const lf = buffer.indexOf('\n', start);
        if (cr < 0 && lf < 0) break;
        let end;
        let next;
        if (cr >= 0 && (lf < 0 || cr < lf)) {
          if (cr === buffer.length - 1) break; // a CR at the end may be followed by LF
          end = cr;
          next = buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
        } else {
          end = lf;
          next = lf + 1;
        }
        line(buffer.slice(start, end));
        start = next;
      }
      buffer = buffer.slice(start);
    },
    /** The id of the last event seen (to resume after). */
    get lastId() {
      return id;
    },
  };
}
