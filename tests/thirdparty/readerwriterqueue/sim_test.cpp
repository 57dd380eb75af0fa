// correct.cpp's pipeline as a SIM_TEST: requester -> BlockingReaderWriterQueue
// (grows from 4) -> doubler -> BlockingReaderWriterCircularBuffer (capacity
// 2) -> the test body; one producer and one consumer per queue, answers in
// request order.
#include <readerwriterqueue/readerwritercircularbuffer.h>
#include <readerwriterqueue/readerwriterqueue.h>

#include <thread>

#include "sim/gtest.h"

namespace {

constexpr int kRequests = 12;
constexpr int kStop = -1;

SIM_TEST(ReaderWriterQueue, PipelineAnswersInRequestOrder) {
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
    EXPECT_EQ(answer, expected_request * 2);
  }
  requester.join();
  doubler.join();
  EXPECT_EQ(requests.peek(), nullptr);
  EXPECT_EQ(answers.size_approx(), 0u);
}

}  // namespace
