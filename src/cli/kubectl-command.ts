// The command class of the whole `ordinal` / `kubectl ordinal` tree: commander's parsing with kubectl's
// words for the usage errors a user meets most (pflag's `unknown flag: --x`, `flag needs an argument: --x`),
// and a help text that shows a default only when it says something.

import { Command, Help, type Option } from 'commander';

/** `--bogus=3` → `--bogus`; pflag names the flag without its value. */
const flagName = (arg: string): string => arg.split('=')[0] ?? arg;

// upstream: spf13/pflag flag.go (parseLongArg, parseSingleShortArg): "unknown flag: --%s",
// "unknown shorthand flag: %q in -%s", "flag needs an argument: --%s", "flag needs an argument: %q in -%s"
function pflagError(what: 'unknown' | 'needs an argument', arg: string): string {
  const flag = flagName(arg);
  const long = flag.startsWith('--');
  if (what === 'unknown') return long ? `error: unknown flag: ${flag}` : `error: unknown shorthand flag: '${flag.charAt(1)}' in ${flag}`;
  return long ? `error: flag needs an argument: ${flag}` : `error: flag needs an argument: '${flag.charAt(1)}' in ${flag}`;
}

class KubectlHelp extends Help {
  /** Commander prints every default; an empty list (a repeatable flag given no value) says nothing. */
  override optionDescription(option: Option): string {
    const empty = Array.isArray(option.defaultValue) && option.defaultValue.length === 0;
    if (!empty) return super.optionDescription(option);
    const shown = Object.assign(Object.create(Object.getPrototypeOf(option) as object) as Option, option, { defaultValue: undefined });
    return super.optionDescription(shown);
  }
}

export class KubectlCommand extends Command {
  override createCommand(name?: string): KubectlCommand {
    return new KubectlCommand(name);
  }

  override createHelp(): Help {
    return Object.assign(new KubectlHelp(), this.configureHelp());
  }

  // commander 14 calls these (undocumented) methods for the two errors; each ends in `this.error`, as theirs
  // do. No command here allows unknown options, so commander's check for that is left out.
  unknownOption(flag: string): void {
    this.error(pflagError('unknown', flag), { code: 'commander.unknownOption' });
  }

  optionMissingArgument(option: Option): void {
    this.error(pflagError('needs an argument', option.long ?? option.short ?? option.flags), { code: 'commander.optionMissingArgument' });
  }
}
