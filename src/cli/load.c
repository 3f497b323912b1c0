/* load.c — devices and modules for the commands: a device with the
 * options' memory limit and threads, a module read (bounded, see io.h)
 * and loaded from assembly text or a binary image.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/io.h"

int create_device(uint64_t max_memory, unsigned threads, we_device **dev)
{
	we_device_config cfg;
	we_status s;

	memset(&cfg, 0, sizeof cfg);
	cfg.max_memory = max_memory;
	cfg.threads = threads;
	*dev = NULL;
	s = we_device_create(&cfg, dev);
	return s == WE_OK ? CLI_EXIT_OK : api_err(*dev, s);
}

we_status load_module_data(we_device *dev, const uint8_t *data, size_t len, const char *path,
			   we_module **mod)
{
	*mod = NULL;
	if (cli_is_binary_module(data, len))
		return we_module_load_binary(dev, data, len, mod);
	return we_module_load_text(dev, (const char *)data, len, display_name(path), mod);
}

int load_module(we_device *dev, const char *path, const cli_intr *intr, we_module **mod,
		uint8_t **keep, size_t *keep_len)
{
	uint8_t *data;
	size_t len;
	we_status s;
	bool over;
	int rc = read_file(path, CLI_FILE_MAX, intr, &data, &len, &over);

	*mod = NULL;
	if (rc)
		return rc;
	if (over)
		return errorf(CLI_EXIT_LIMIT, "%s: more than %" PRIu64 " bytes: a module or source file "
			      "may have at most 64 MiB", display_name(path), CLI_FILE_MAX);
	s = load_module_data(dev, data, len, path, mod);
	/* assembly errors name their file:line:col; a binary image's errors
	 * are given the file's name */
	if (s != WE_OK)
		rc = cli_is_binary_module(data, len) ? api_err_in(dev, s, display_name(path))
						     : api_err(dev, s);
	if (keep) {
		*keep = data;
		*keep_len = len;
	} else {
		free(data);
	}
	return rc;
}
