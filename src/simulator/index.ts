// Public surface of the terminal simulator (library use: tests and bench scripts).
export { SimulatedTerminal } from './simulated-terminal';
export type { CommandEvent, HandshakeEvent, PunchInput, SimulatedTerminalConfig, TerminalStats, UploadEvent } from './simulated-terminal';
export { TerminalFleet } from './terminal-fleet';
export type { FleetCounters, TerminalFleetConfig } from './terminal-fleet';
export type { ParsedCommand } from './command-parser';
export type { StoreSnapshot } from './record-store';
export type { TerminalFamily } from './command-executor';
export { runSimulateCommand, SIMULATE_USAGE } from './cli';
