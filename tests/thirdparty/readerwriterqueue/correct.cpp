// A single-producer single-consumer pipeline on the two queues of
// libreaderwriterqueue: a requester thread sends numbered requests into a
// moodycamel::BlockingReaderWriterQueue that starts with room for 4 (so it
// grows new blocks while the consumer reads), a doubler thread waits on it
// and answers each into a BlockingReaderWriterCircularBuffer of capacity 2
// (so it blocks in wait_enqueue whenever main falls behind), and main
// collects the answers. Each queue has exactly one producer and one
// consumer, as the library requires. Checked: the answers arrive in request
// order and each is twice its request.
#include <readerwriterqueue/readerwritercircularbuffer.h>
#include <readerwriterqueue/readerwriterqueue.h>

#include <cstdio>
#include <thread>

namespace {

constexpr int kRequests = 12;
constexpr int kStop = -1;

}  // namespace

int main() {
  moodycamel::BlockingReaderWriterQueue<int> requests(4);
  moodycamel::BlockingReaderWriterCircularBuffer<int> answers(2);

  std::thread requester([&requests] {
    for (int request = 0; request < kRequests; ++request) requests.enqueue(request);
    requests.enqueue(kStop);
  });
  std::thread doubler([&requests, &answers] {
    for (;;) {
      int request;
      requests.wait_dequeue(request);
      if (request == kStop) return;
      answers.wait_enqueue(request * 2);
    }
  });

  for (int expected_request = 0; expected_request < kRequests; ++expected_request) {
    int answer;
    answers.wait_dequeue(answer);
    if (answer != expected_request * 2) {
      std::fprintf(stderr, "answer %d where request %d's was due\n", answer, expected_request);
      return 1;
    }
  }
  requester.join();
  doubler.join();
  if (requests.peek() != nullptr || answers.size_approx() != 0) {
    std::fprintf(stderr, "items left over after the stop\n");
    return 1;
  }
  return 0;
}
