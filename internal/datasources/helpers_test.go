package datasources_test

import "github.com/hashicorp/terraform-plugin-testing/terraform"

type terraformState = terraform.State
