// The happens-before rules of runtime/race/, driven directly: each edge
// kind three ways where it has them (the race without the edge is found,
// with it is not, with the wrong edge is found), plus what FastTrack's
// shortcuts must not lose (concurrent readers) or invent (neighbouring
// bytes, freed memory).
#include "race/race_detector.h"

#include <gtest/gtest.h>

namespace sim::internal {
namespace {

// Sites are only compared and reported: any distinct addresses do.
const char kSiteA[] = "a";
const char kSiteB[] = "b";
const char kSiteC[] = "c";
constexpr std::uintptr_t kWord = 0x1000;
const int kMutex = 0;
const int kOtherMutex = 0;

class RaceDetectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    detector.Reset();
    detector.ThreadStarted(1, 0);
    detector.ThreadStarted(2, 0);
  }
  RaceDetector detector;
};

TEST_F(RaceDetectorTest, TwoWritesWithoutAnEdgeRace) {
  EXPECT_FALSE(detector.Write(1, kWord, 4, kSiteA));
  const std::optional<Race> race = detector.Write(2, kWord, 4, kSiteB);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->address, kWord);
  EXPECT_EQ(race->current.thread, 2u);
  EXPECT_TRUE(race->current.write);
  EXPECT_EQ(race->current.site, kSiteB);
  EXPECT_EQ(race->previous.thread, 1u);
  EXPECT_TRUE(race->previous.write);
  EXPECT_EQ(race->previous.site, kSiteA);
}

TEST_F(RaceDetectorTest, AReadAfterAnUnorderedWriteRaces) {
  detector.Write(1, kWord, 4, kSiteA);
  const std::optional<Race> race = detector.Read(2, kWord, 4, kSiteB);
  ASSERT_TRUE(race);
  EXPECT_FALSE(race->current.write);
  EXPECT_TRUE(race->previous.write);
}

TEST_F(RaceDetectorTest, AWriteAfterAnUnorderedReadRaces) {
  detector.Read(1, kWord, 4, kSiteA);
  const std::optional<Race> race = detector.Write(2, kWord, 4, kSiteB);
  ASSERT_TRUE(race);
  EXPECT_FALSE(race->previous.write);
}

TEST_F(RaceDetectorTest, ReadsDoNotRaceWithReads) {
  EXPECT_FALSE(detector.Read(1, kWord, 8, kSiteA));
  EXPECT_FALSE(detector.Read(2, kWord, 8, kSiteB));
}

TEST_F(RaceDetectorTest, AMutexOrdersTheWrites) {
  detector.Acquire(1, &kMutex);
  detector.Write(1, kWord, 4, kSiteA);
  detector.Release(1, &kMutex);
  detector.Acquire(2, &kMutex);
  EXPECT_FALSE(detector.Write(2, kWord, 4, kSiteB));
}

TEST_F(RaceDetectorTest, AnotherMutexDoesNot) {
  detector.Acquire(1, &kMutex);
  detector.Write(1, kWord, 4, kSiteA);
  detector.Release(1, &kMutex);
  detector.Acquire(2, &kOtherMutex);
  EXPECT_TRUE(detector.Write(2, kWord, 4, kSiteB));
}

TEST_F(RaceDetectorTest, AnAcquireBeforeTheReleaseDoesNot) {
  detector.Acquire(2, &kMutex);
  detector.Write(1, kWord, 4, kSiteA);
  detector.Release(1, &kMutex);
  EXPECT_TRUE(detector.Write(2, kWord, 4, kSiteB));
}

TEST_F(RaceDetectorTest, AWriteAfterTheReleaseIsNotOrdered) {
  detector.Release(1, &kMutex);
  detector.Write(1, kWord, 4, kSiteA);  // after the release: the acquirer cannot know it
  detector.Acquire(2, &kMutex);
  EXPECT_TRUE(detector.Read(2, kWord, 4, kSiteB));
}

TEST_F(RaceDetectorTest, CreationOrdersWhatTheCreatorDidBefore) {
  RaceDetector fresh;
  fresh.Reset();
  fresh.Write(0, kWord, 4, kSiteA);
  fresh.ThreadStarted(1, 0);
  EXPECT_FALSE(fresh.Read(1, kWord, 4, kSiteB));
  fresh.Write(0, kWord + 8, 4, kSiteA);  // after the creation
  EXPECT_TRUE(fresh.Read(1, kWord + 8, 4, kSiteB));
}

TEST_F(RaceDetectorTest, AJoinOrdersWhatTheThreadDid) {
  detector.Write(1, kWord, 4, kSiteA);
  detector.ThreadJoined(0, 1);
  EXPECT_FALSE(detector.Read(0, kWord, 4, kSiteB));
  detector.Write(2, kWord + 8, 4, kSiteA);
  EXPECT_TRUE(detector.Read(0, kWord + 8, 4, kSiteB)) << "joining thread 1 says nothing of thread 2";
}

TEST_F(RaceDetectorTest, NeighbouringBytesOfOneWordDoNotRace) {
  EXPECT_FALSE(detector.Write(1, kWord, 1, kSiteA));
  EXPECT_FALSE(detector.Write(2, kWord + 1, 1, kSiteB));
  EXPECT_FALSE(detector.Read(1, kWord + 4, 4, kSiteC));
  EXPECT_TRUE(detector.Read(2, kWord, 2, kSiteC)) << "byte 0 is thread 1's unordered write";
}

TEST_F(RaceDetectorTest, AThreadsOwnReadDoesNotHideItsWrite) {
  // The read would take the write's slot were a read allowed to supersede
  // a write: then thread 2's read would find nothing to race with.
  detector.Write(1, kWord, 4, kSiteA);
  detector.Read(1, kWord, 4, kSiteB);
  const std::optional<Race> race = detector.Read(2, kWord, 4, kSiteC);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->previous.site, kSiteA);
}

TEST_F(RaceDetectorTest, ManyReadersThenAWriterFindsOne) {
  // More concurrent readers than a granule has slots: the oldest are
  // evicted, and the writer still races with one that is left.
  for (RaceThread reader = 3; reader < 10; ++reader) {
    detector.ThreadStarted(reader, 0);
    detector.Read(reader, kWord, 8, kSiteA);
  }
  EXPECT_TRUE(detector.Write(1, kWord, 8, kSiteB));
}

TEST_F(RaceDetectorTest, AnAccessAcrossTwoWordsSeesBoth) {
  detector.Write(1, kWord + 12, 1, kSiteA);
  const std::optional<Race> race = detector.Read(2, kWord + 6, 8, kSiteB);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->address, kWord + 12);
}

TEST_F(RaceDetectorTest, AFullCellGivesUpItsSlotsInTurn) {
  // Six concurrent readers of each of two words, four slots a word: the
  // first two readers are evicted, in turn. A writer that knows only the
  // last four finds nothing (an eviction hides a race, never invents one);
  // one that knows only the first two finds one.
  for (RaceThread reader = 3; reader < 9; ++reader) {
    detector.ThreadStarted(reader, 0);
    detector.Read(reader, kWord, 8, kSiteA);
    detector.Read(reader, kWord + 8, 8, kSiteA);
  }
  for (RaceThread reader = 5; reader < 9; ++reader) detector.ThreadJoined(1, reader);
  EXPECT_FALSE(detector.Write(1, kWord, 8, kSiteB)) << "readers 3 and 4 are gone";
  detector.ThreadJoined(2, 3);
  detector.ThreadJoined(2, 4);
  const std::optional<Race> race = detector.Write(2, kWord + 8, 8, kSiteC);
  ASSERT_TRUE(race);
  EXPECT_GE(race->previous.thread, 5u);
}

TEST_F(RaceDetectorTest, AWriteRacesWithEveryConcurrentReader) {
  // Two readers that do not know of each other: both are remembered, so a
  // writer ordered after one of them still races with the other.
  detector.Read(1, kWord, 4, kSiteA);
  detector.Read(2, kWord, 4, kSiteB);
  detector.Release(1, &kMutex);
  detector.Acquire(0, &kMutex);
  const std::optional<Race> race = detector.Write(0, kWord, 4, kSiteC);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->previous.thread, 2u);
  EXPECT_EQ(race->previous.site, kSiteB);
}

TEST_F(RaceDetectorTest, AWriterOrderedAfterAllReadersDoesNotRace) {
  detector.Read(1, kWord, 4, kSiteA);
  detector.Read(2, kWord, 4, kSiteB);
  detector.ThreadJoined(0, 1);
  detector.ThreadJoined(0, 2);
  EXPECT_FALSE(detector.Write(0, kWord, 4, kSiteC));
}

TEST_F(RaceDetectorTest, FreedMemoryDropsItsHistory) {
  detector.Write(1, kWord, 8, kSiteA);
  detector.Forget(kWord, kWord + 8);
  EXPECT_FALSE(detector.Write(2, kWord, 8, kSiteB)) << "a new object at a reused address";
  detector.Write(1, kWord + 16, 8, kSiteA);
  detector.Forget(kWord + 16, kWord + 20);  // half of it
  EXPECT_FALSE(detector.Read(2, kWord + 16, 4, kSiteB));
  EXPECT_TRUE(detector.Read(2, kWord + 20, 4, kSiteC));
}

TEST_F(RaceDetectorTest, ForgettingALargeRangeReachesEveryTouchedPage) {
  // A finished thread's whole stack: megabytes, a few words of them touched.
  constexpr std::uintptr_t kFar = kWord + (std::uintptr_t{3} << 20);
  detector.Write(1, kWord, 8, kSiteA);
  detector.Write(1, kFar, 8, kSiteA);
  detector.Write(1, kFar + 64, 8, kSiteA);
  detector.Forget(kWord, kFar + 8);
  EXPECT_FALSE(detector.Write(2, kWord, 8, kSiteB));
  EXPECT_FALSE(detector.Write(2, kFar, 8, kSiteB));
  EXPECT_TRUE(detector.Write(2, kFar + 64, 8, kSiteC)) << "past the forgotten range";
}

TEST_F(RaceDetectorTest, EachPairOfSitesIsReportedOnce) {
  detector.Write(1, kWord, 4, kSiteA);
  EXPECT_TRUE(detector.Write(2, kWord, 4, kSiteB));
  detector.Write(1, kWord + 8, 4, kSiteA);
  EXPECT_FALSE(detector.Write(2, kWord + 8, 4, kSiteB)) << "the same two sites again";
  detector.Write(1, kWord + 16, 4, kSiteA);
  EXPECT_TRUE(detector.Write(2, kWord + 16, 4, kSiteC)) << "another pair";
}

TEST_F(RaceDetectorTest, ResetForgetsTheExecution) {
  detector.Write(1, kWord, 4, kSiteA);
  detector.Release(1, &kMutex);
  detector.Reset();  // keeps its pages and clocks' memory, emptied
  detector.ThreadStarted(1, 0);
  detector.ThreadStarted(2, 0);
  EXPECT_FALSE(detector.Write(2, kWord, 4, kSiteB)) << "the last execution's write";
  // Nor its edges: the mutex was released in the last execution only.
  EXPECT_FALSE(detector.Write(1, kWord + 8, 4, kSiteA));
  detector.Acquire(2, &kMutex);
  EXPECT_TRUE(detector.Write(2, kWord + 8, 4, kSiteC));
  // Its slots are free again, not merely ordered: four threads' reads
  // filled the cell in the last execution, and each of this one's four
  // takes a slot of its own, none evicted, so a write by a fifth races with
  // the first of them.
  detector.Reset();
  for (RaceThread reader = 1; reader <= 5; ++reader) detector.ThreadStarted(reader, 0);
  const char* const kSites[] = {kSiteA, kSiteB, kSiteC, "d"};
  for (RaceThread reader = 1; reader <= 4; ++reader) detector.Read(reader, kWord + 32, 4, kSites[reader - 1]);
  detector.Reset();
  for (RaceThread reader = 1; reader <= 5; ++reader) detector.ThreadStarted(reader, 0);
  for (RaceThread reader = 1; reader <= 4; ++reader) detector.Read(reader, kWord + 32, 4, kSites[reader - 1]);
  const std::optional<Race> race = detector.Write(5, kWord + 32, 4, "e");
  ASSERT_TRUE(race);
  EXPECT_EQ(race->previous.thread, 1u);
  // A page kept from the last execution is forgotten like any other.
  detector.Reset();
  detector.ThreadStarted(1, 0);
  detector.ThreadStarted(2, 0);
  detector.Forget(kWord, kWord + 16);
  detector.Write(1, kWord, 4, kSiteA);
  EXPECT_TRUE(detector.Write(2, kWord, 4, kSiteB));
}

// Atomics by memory order (C++ [intro.races], [atomics.fences]).
const int kFlag = 0;
using enum MemoryOrder;

TEST_F(RaceDetectorTest, AnAcquireThatReadsAReleaseOrdersThreeWays) {
  detector.Write(1, kWord, 4, kSiteA);
  detector.AtomicStore(1, &kFlag, kRelease);
  detector.AtomicLoad(2, &kFlag, kAcquire);
  EXPECT_FALSE(detector.Write(2, kWord, 4, kSiteB)) << "release, acquire";
  detector.Write(1, kWord + 8, 4, kSiteA);
  detector.AtomicStore(1, &kFlag, kRelaxed);
  detector.AtomicLoad(2, &kFlag, kAcquire);
  EXPECT_TRUE(detector.Write(2, kWord + 8, 4, kSiteB)) << "relaxed, acquire";
  detector.Write(1, kWord + 16, 4, kSiteA);
  detector.AtomicStore(1, &kFlag, kRelease);
  detector.AtomicLoad(2, &kFlag, kRelaxed);
  EXPECT_TRUE(detector.Write(2, kWord + 16, 4, kSiteC)) << "release, relaxed";
}

TEST_F(RaceDetectorTest, AReadModifyWriteContinuesTheReleaseSequenceAStoreEnds) {
  detector.Write(1, kWord, 4, kSiteA);
  detector.AtomicStore(1, &kFlag, kRelease);
  detector.AtomicReadModifyWrite(0, &kFlag, kRelaxed);  // another thread's relaxed fetch_add
  detector.AtomicLoad(2, &kFlag, kAcquire);
  EXPECT_FALSE(detector.Write(2, kWord, 4, kSiteB)) << "the acquire reads the sequence headed by the release";

  detector.Write(1, kWord + 8, 4, kSiteA);
  detector.AtomicStore(1, &kFlag, kRelease);
  detector.AtomicStore(0, &kFlag, kRelease);  // a new sequence, headed by thread 0's store
  detector.AtomicLoad(2, &kFlag, kAcquire);
  EXPECT_TRUE(detector.Write(2, kWord + 8, 4, kSiteB)) << "thread 1's release is no longer read";
}

TEST_F(RaceDetectorTest, FencesMakeRelaxedOperationsSynchronise) {
  detector.Write(1, kWord, 4, kSiteA);
  detector.Fence(1, kRelease);
  detector.AtomicStore(1, &kFlag, kRelaxed);
  detector.AtomicLoad(2, &kFlag, kRelaxed);
  detector.Fence(2, kAcquire);
  EXPECT_FALSE(detector.Write(2, kWord, 4, kSiteB)) << "release fence, acquire fence";

  detector.Write(1, kWord + 8, 4, kSiteA);
  detector.Fence(1, kRelease);
  detector.AtomicStore(1, &kFlag, kRelaxed);
  detector.AtomicLoad(2, &kFlag, kRelaxed);
  EXPECT_TRUE(detector.Write(2, kWord + 8, 4, kSiteB)) << "no acquire fence";

  detector.Write(1, kWord + 16, 4, kSiteA);
  detector.Fence(1, kRelease);
  detector.AtomicStore(1, &kFlag, kRelaxed);
  detector.Fence(2, kAcquire);  // before the load it should follow
  detector.AtomicLoad(2, &kFlag, kRelaxed);
  EXPECT_TRUE(detector.Write(2, kWord + 16, 4, kSiteC)) << "an acquire fence before the load";
}

TEST_F(RaceDetectorTest, AWriteAfterARelaxedStoreIsNotReleasedByAnEarlierFence) {
  detector.Fence(1, kRelease);
  detector.Write(1, kWord, 4, kSiteA);  // after the fence
  detector.AtomicStore(1, &kFlag, kRelaxed);
  detector.AtomicLoad(2, &kFlag, kAcquire);
  EXPECT_TRUE(detector.Write(2, kWord, 4, kSiteB));
}

TEST_F(RaceDetectorTest, AReadersUnlockReachesTheNextWriterNotTheNextReader) {
  detector.Write(1, kWord, 4, kSiteA);  // under a read lock: a bug
  detector.ReleaseShared(1, &kMutex);
  detector.Acquire(2, &kMutex);  // a reader
  EXPECT_TRUE(detector.Read(2, kWord, 4, kSiteB));

  detector.Read(1, kWord + 8, 4, kSiteA);
  detector.ReleaseShared(1, &kMutex);
  detector.AcquireExclusive(2, &kMutex);  // a writer
  EXPECT_FALSE(detector.Write(2, kWord + 8, 4, kSiteB));
}

TEST_F(RaceDetectorTest, AtomicAccessesRaceWithPlainOnesOnlyThreeWays) {
  EXPECT_FALSE(detector.Access(1, kWord, 4, kSiteA, /*write=*/true, /*atomic=*/true));
  EXPECT_FALSE(detector.Access(2, kWord, 4, kSiteB, /*write=*/true, /*atomic=*/true)) << "atomic, atomic";
  const std::optional<Race> race = detector.Read(2, kWord, 4, kSiteC);
  ASSERT_TRUE(race) << "a plain read of an atomic's bytes, unordered with its write";
  EXPECT_TRUE(race->previous.atomic);
  EXPECT_FALSE(race->current.atomic);

  detector.Write(1, kWord + 8, 4, kSiteA);  // a plain initialisation, published
  detector.AtomicStore(1, &kFlag, kRelease);
  detector.AtomicLoad(2, &kFlag, kAcquire);
  EXPECT_FALSE(detector.Access(2, kWord + 8, 4, kSiteB, /*write=*/true, /*atomic=*/true)) << "ordered after it";
}

TEST_F(RaceDetectorTest, AnAtomicAccessDoesNotHideAnEarlierPlainOne) {
  detector.Write(1, kWord, 4, kSiteA);                                    // plain
  detector.Access(1, kWord, 4, kSiteB, /*write=*/true, /*atomic=*/true);  // then atomic, same thread
  EXPECT_TRUE(detector.Access(2, kWord, 4, kSiteC, /*write=*/false, /*atomic=*/true))
      << "the plain write still races with another thread's atomic read";
}

// What the shortcuts of AccessGranule must not lose: a thread's accesses of
// one site and clock share a record, and a thread that touches what it
// touched before skips the questions only where they cannot matter.
TEST_F(RaceDetectorTest, MergedBytesStillRaceWithAWriteToAnyOfThem) {
  // More single-byte reads than a granule has slots: merged, none evicted.
  for (std::uintptr_t byte = 0; byte < 8; ++byte) EXPECT_FALSE(detector.Read(1, kWord + byte, 1, kSiteA));
  const std::optional<Race> first = detector.Write(2, kWord, 1, kSiteB);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->address, kWord);
  EXPECT_EQ(first->previous.site, kSiteA);
  EXPECT_EQ(first->previous.size, 1u) << "each read was of one byte, merged or not";
  const std::optional<Race> last = detector.Write(2, kWord + 7, 1, kSiteC);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->address, kWord + 7);
  EXPECT_EQ(last->previous.site, kSiteA);
}

TEST_F(RaceDetectorTest, AMergeKeepsEachClock) {
  detector.Read(1, kWord, 1, kSiteA);
  detector.Release(1, &kMutex);
  detector.Read(1, kWord + 1, 1, kSiteA);  // the same site, after the release: not merged into the first
  detector.Acquire(2, &kMutex);
  EXPECT_FALSE(detector.Write(2, kWord, 1, kSiteB)) << "the first read was released";
  const std::optional<Race> race = detector.Write(2, kWord + 1, 1, kSiteC);
  ASSERT_TRUE(race) << "the second was not";
  EXPECT_EQ(race->previous.site, kSiteA);
}

TEST_F(RaceDetectorTest, ARepeatAfterAReleaseIsANewAccess) {
  detector.Write(1, kWord, 4, kSiteA);
  detector.Release(1, &kMutex);
  detector.Write(1, kWord, 4, kSiteA);  // all as before but its clock
  detector.Acquire(2, &kMutex);
  EXPECT_TRUE(detector.Write(2, kWord, 4, kSiteB));
}

TEST_F(RaceDetectorTest, ARepeatDoesNotHideARaceWithAnotherThread) {
  // Thread 2's write races with thread 0's and thread 1's, and reports the
  // first only (once per access). Thread 1's repeat of its read must still
  // report the other pair: another thread's conflicting slot sends it
  // through the full check.
  RaceDetector fresh;
  fresh.Reset();
  fresh.ThreadStarted(1, 0);
  fresh.ThreadStarted(2, 0);
  fresh.Write(0, kWord, 4, kSiteC);
  EXPECT_TRUE(fresh.Read(1, kWord, 4, kSiteA));
  const std::optional<Race> second = fresh.Write(2, kWord, 4, kSiteB);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->previous.site, kSiteC);
  const std::optional<Race> repeat = fresh.Read(1, kWord, 4, kSiteA);
  ASSERT_TRUE(repeat);
  EXPECT_EQ(repeat->previous.thread, 2u);
  EXPECT_EQ(repeat->previous.site, kSiteB);
}

TEST_F(RaceDetectorTest, AReadModifyWriteLoopStillRacesWithAnotherThread) {
  // ++x over and over at one clock: the write supersedes the read each
  // time, and another thread's read races with the write.
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(detector.Read(1, kWord, 4, kSiteA));
    EXPECT_FALSE(detector.Write(1, kWord, 4, kSiteB));
  }
  const std::optional<Race> race = detector.Read(2, kWord, 4, kSiteC);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->previous.site, kSiteB);
  EXPECT_TRUE(race->previous.write);
}

TEST_F(RaceDetectorTest, AnotherThreadsReadDoesNotStopAWriteFromRacing) {
  detector.Read(1, kWord, 4, kSiteA);
  detector.Read(2, kWord, 4, kSiteB);  // no conflict between reads
  detector.Read(1, kWord, 4, kSiteA);  // a repeat
  const std::optional<Race> race = detector.Write(1, kWord, 4, kSiteC);
  ASSERT_TRUE(race) << "thread 1's write, unordered with thread 2's read";
  EXPECT_EQ(race->previous.site, kSiteB);
}

// The shadow's packed record (shadow_memory.h): every field at its limits.
TEST(AccessRecordTest, KeepsEveryFieldAtItsLimits) {
  const auto* top_site = reinterpret_cast<const void*>((std::uintptr_t{1} << AccessRecord::kSiteBits) - 1);
  ASSERT_TRUE(AccessRecord::SiteFits(top_site));
  EXPECT_FALSE(AccessRecord::SiteFits(reinterpret_cast<const void*>(std::uintptr_t{1} << AccessRecord::kSiteBits)));
  const Epoch last(kMaxRaceThreads - 1, kMaxClock);
  const AccessRecord record(last, top_site, 0x80, 1, /*write=*/true, /*atomic=*/true);
  EXPECT_EQ(record.epoch().thread(), kMaxRaceThreads - 1);
  EXPECT_EQ(record.epoch().clock(), kMaxClock);
  EXPECT_EQ(record.site(), top_site);
  EXPECT_EQ(record.bytes(), 0x80);
  EXPECT_EQ(record.size(), 1u);
  EXPECT_TRUE(record.write());
  EXPECT_TRUE(record.atomic());

  const AccessRecord plain(Epoch(0, 1), kSiteA, 0xff, 8, /*write=*/false, /*atomic=*/false);
  EXPECT_EQ(plain.site(), kSiteA);
  EXPECT_EQ(plain.bytes(), 0xff);
  EXPECT_EQ(plain.size(), 8u);
  EXPECT_FALSE(plain.write());
  EXPECT_FALSE(plain.atomic());
  EXPECT_TRUE(plain.LiveAfter(0));
  EXPECT_FALSE(plain.LiveAfter(1)) << "an earlier execution's";
  EXPECT_FALSE(AccessRecord{}.LiveAfter(0));
}

// AccessRecord::Questions asks on the packed words with masks; every pair
// of byte sets and kinds against the rules as the header states them.
TEST(AccessRecordTest, QuestionsAgreeWithTheRulesTheyPack) {
  for (unsigned kinds = 0; kinds < 16; ++kinds) {
    const bool write = (kinds & 1) != 0, atomic = (kinds & 2) != 0;
    const bool slot_write = (kinds & 4) != 0, slot_atomic = (kinds & 8) != 0;
    for (unsigned bytes = 1; bytes < 256; ++bytes) {
      const AccessRecord access(Epoch(1, 5), kSiteA, static_cast<std::uint8_t>(bytes), 1, write, atomic);
      const AccessRecord::Questions ask(access);
      for (unsigned slot_bytes = 1; slot_bytes < 256; ++slot_bytes) {
        const AccessRecord slot(Epoch(2, 7), kSiteB, static_cast<std::uint8_t>(slot_bytes), 1, slot_write, slot_atomic);
        const bool covers = (slot_bytes & ~bytes) == 0;
        ASSERT_EQ(ask.CanSupersede(slot), covers && (write || !slot_write) && (!atomic || slot_atomic))
            << bytes << " " << slot_bytes << " " << kinds;
        ASSERT_EQ(ask.Conflicts(slot), (slot_bytes & bytes) != 0 && (write || slot_write) && !(atomic && slot_atomic))
            << bytes << " " << slot_bytes << " " << kinds;
      }
    }
  }
  const AccessRecord access(Epoch(1, 5), kSiteA, 0x0f, 4, /*write=*/false, /*atomic=*/false);
  const AccessRecord::Questions ask(access);
  EXPECT_TRUE(ask.SameAccess(AccessRecord(Epoch(1, 5), kSiteA, 0xf0, 4, false, false))) << "bytes aside";
  EXPECT_FALSE(ask.SameAccess(AccessRecord(Epoch(1, 6), kSiteA, 0x0f, 4, false, false))) << "another clock";
  EXPECT_FALSE(ask.SameAccess(AccessRecord(Epoch(2, 5), kSiteA, 0x0f, 4, false, false))) << "another thread";
  EXPECT_FALSE(ask.SameAccess(AccessRecord(Epoch(1, 5), kSiteB, 0x0f, 4, false, false))) << "another site";
  EXPECT_FALSE(ask.SameAccess(AccessRecord(Epoch(1, 5), kSiteA, 0x0f, 2, false, false))) << "another size";
  EXPECT_FALSE(ask.SameAccess(AccessRecord(Epoch(1, 5), kSiteA, 0x0f, 4, true, false))) << "a write";
  EXPECT_FALSE(ask.SameAccess(AccessRecord(Epoch(1, 5), kSiteA, 0x0f, 4, false, true))) << "an atomic";
  EXPECT_TRUE(ask.SameThread(AccessRecord(Epoch(1, 9), kSiteB, 0x01, 1, true, true)));
  EXPECT_FALSE(ask.SameThread(AccessRecord(Epoch(2, 5), kSiteA, 0x0f, 4, false, false)));
}

}  // namespace
}  // namespace sim::internal
