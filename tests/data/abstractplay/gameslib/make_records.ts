// Plays random Pikemen games with AbstractPlay's own engine (gameslib's PikemenGame:
// moves(), move(), resign(), timeout(), draw(), abandoned()) and writes each finished
// game's genRecord() as one line of JSON (JSON Lines) on standard output.
// With a fourth argument, it also writes to that file, per game, gameslib's legal moves
// before each move: how many, and the first 8 hex digits of the SHA-256 of their sorted list
// joined by line breaks (JSON Lines: {"gameid", "legal": ["120:1a2b3c4d", ...]}).
// Not run by the tests: see README.md beside it for how it was run.
//
//   npx tsx make_records.ts GAMESLIB_SRC COUNT SEED [LEGAL.jsonl] > records.jsonl
import * as path from "path";
import * as fs from "fs";
import { createHash } from "crypto";

const [src, countArg, seedArg, legalPath] = process.argv.slice(2);
const legalOut = legalPath === undefined ? undefined : fs.openSync(legalPath, "w");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PikemenGame } = require(path.resolve(src, "games", "pikemen"));
// English texts loaded as AbstractPlay's server loads them (gameslib's own addResource):
// genRecord() writes the variants' English names
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(path.resolve(src, "i18n-node")).addResource("en");

// mulberry32: a small seeded generator, so that the same command makes the same games
let state = Number(seedArg) >>> 0;
function random(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];

const NAMES = ["Ann", "Bo", "Chidi", "Dörte", "Eun-ji", "Farid", "Gwen", "Hiro", "Ines", "Jakub", "Kalani", "Lior"];
const ENDS = ["score", "score", "score", "score", "score", "score", "resign", "resign-out-of-turn", "timeout", "draw", "abandoned"];

const count = Number(countArg);
const base = Date.UTC(2024, 0, 1);
for (let n = 0; n < count; n++) {
    const variants = random() < 0.3 ? ["15pts"] : [];
    const game = new PikemenGame(undefined, variants);
    const end = pick(ENDS);
    // games not ended by score stop after a random number of turns
    const stopAt = end === "score" ? Infinity : 1 + Math.floor(random() * 60);
    // captures are taken more often than chance would, so that games end in a few hundred turns
    const greed = pick([0, 0.2, 0.5, 0.9]);
    let turns = 0;
    const legal: string[] = [];
    while (!game.gameover && turns < stopAt) {
        const moves: string[] = game.moves();
        const digest = createHash("sha256").update([...moves].sort().join("\n")).digest("hex").slice(0, 8);
        legal.push(`${moves.length}:${digest}`);
        const captures = moves.filter((m) => m.includes("x"));
        const move = captures.length > 0 && random() < greed ? pick(captures) : pick(moves);
        game.move(move);
        turns++;
        if (turns > 5000) { throw new Error("game too long"); }
    }
    if (!game.gameover) {
        const toMove: number = game.currplayer;
        if (end === "resign") { game.resign(toMove); }
        else if (end === "resign-out-of-turn") { game.resign(3 - toMove); }
        else if (end === "timeout") { game.timeout(toMove); }
        else if (end === "draw") { game.draw(); }
        else { game.abandoned(); }
    }
    const start = new Date(base + Math.floor(random() * 300) * 86400000 + Math.floor(random() * 86400000));
    const finish = new Date(start.getTime() + Math.floor(random() * 30 * 86400000));
    const red = pick(NAMES);
    const blue = pick(NAMES.filter((name) => name !== red));
    const details: Record<string, unknown> = {
        uid: `gameslib-b8c31156-${seedArg}-${n + 1}`,
        players: [
            { name: red, uid: `user-${red.length}-${NAMES.indexOf(red)}`, isai: random() < 0.1 },
            { name: blue, uid: `user-${blue.length}-${NAMES.indexOf(blue)}`, isai: random() < 0.1 },
        ],
        dateStart: start,
        dateEnd: finish,
    };
    if (random() < 0.2) { details.unrated = true; }
    if (random() < 0.15) { details.event = "Pikemen open"; details.round = String(1 + Math.floor(random() * 5)); }
    const record = game.genRecord(details);
    if (record === undefined) { throw new Error("no record for a finished game"); }
    // date-generated is the clock's: fixed here so that a rerun writes the same bytes
    record.header["date-generated"] = "2026-12-02T00:00:00.000Z";
    process.stdout.write(JSON.stringify(record) + "\n");
    if (legalOut !== undefined) {
        fs.writeSync(legalOut, JSON.stringify({ gameid: details.uid, legal }) + "\n");
    }
}
