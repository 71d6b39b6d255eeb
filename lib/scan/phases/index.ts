// The phases of a scan, run in order by runPhases.
export * from './run';
