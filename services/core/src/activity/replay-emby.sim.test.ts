// The randomized 1,000-play replay against ground truth on the emby flavor (see test-support/replay-scenario.ts).
import { describeReplay } from './test-support/replay-scenario.js';

describeReplay('emby', 12);
