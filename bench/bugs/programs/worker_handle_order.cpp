// worker_handle_order: a connection starts its reader thread and only then
// sets up the inbox the reader delivers into (the shape of Mozilla's
// PR_CreateThread bug in Lu et al., ASPLOS 2008).
// Shape: order violation without a join (the creator's initialisation is
// assumed to happen before the new thread runs).
//
// Bug: open() starts the reader, then assigns inbox_; a reader that runs
// first finds no inbox and drops the message.
// -DFIXED: assign inbox_ before starting the reader.
#include <cstdio>
#include <thread>

struct Inbox {
  int messages = 0;
};

class Connection {
 public:
  void open(Inbox* inbox) {
#if defined(FIXED)
    inbox_ = inbox;
    reader_ = std::thread([this] { read_loop(); });
#else
    reader_ = std::thread([this] { read_loop(); });
    inbox_ = inbox;
#endif
  }

  void close() { reader_.join(); }
  int dropped() const { return dropped_; }

 private:
  void read_loop() {
    if (inbox_ == nullptr) {
      ++dropped_;
      return;
    }
    ++inbox_->messages;
  }

  std::thread reader_;
  Inbox* inbox_ = nullptr;
  int dropped_ = 0;
};

int main() {
  Inbox inbox;
  Connection connection;
  connection.open(&inbox);
  connection.close();
  if (connection.dropped() != 0 || inbox.messages != 1) {
    std::fprintf(stderr, "worker_handle_order: the reader ran before its inbox was set and dropped a message\n");
    return 1;
  }
  return 0;
}
