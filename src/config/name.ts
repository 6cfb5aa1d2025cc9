/** The config file's name, apart from its loader: the command line names it in help without loading it. */
export const CONFIG_NAME = 'mcp-typegen.config.json';
